import Foundation
import ProcessSpawning
import TestProcessSupport

/// Runs the `journal-crash-writer` executable (built beside the test bundle
/// by `swift build --build-tests`) and collects the revisions it acknowledges.
struct CrashWriterProcess {
    /// The data directory the writer appends to.
    var directory: String
    /// Entries per batch.
    var batchSize: Int

    /// The executable next to the running test binary.
    static var executable: URL {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent("journal-crash-writer")
    }

    /// Starts the writer, sends it SIGKILL once it has acknowledged
    /// `killAfter` batches (after a further `delayMicroseconds`), and returns
    /// every revision it printed on a complete line before dying.
    func runAndKill(killAfter: Int, delayMicroseconds: UInt32) async throws -> [UInt64] {
        try await onOwnThread {
            try run(arguments: [directory, "\(batchSize)"], killAfter: killAfter, delay: delayMicroseconds)
        }
    }

    /// Where `strace` is, when it is installed.
    static let strace = ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs the writer for `batches` batches under `strace` and returns how
    /// many `fsync` and `fdatasync` calls it made.
    func countFsyncs(batches: Int) async throws -> Int {
        let trace = directory + ".strace"
        defer { try? FileManager.default.removeItem(atPath: trace) }  // cleanup only
        try await onOwnThread {
            let process = try SpawnedChild([
                Self.strace ?? "strace", "-f", "-qq", "-e", "trace=fsync,fdatasync", "-o", trace,
                Self.executable.path, directory, "\(batchSize)", "\(batches)",
            ])
            let status = process.waitUntilExit()
            guard status == 0 else { throw CrashWriterFailure(status: status, acknowledged: 0) }
        }
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        return lines.count { $0.contains("fsync(") || $0.contains("fdatasync(") }
    }

    private func run(arguments: [String], killAfter: Int, delay: UInt32) throws -> [UInt64] {
        let process = try SpawnedChild(
            [Self.executable.path] + arguments, standardOutput: .pipe, standardError: .descriptor(FileHandle.standardError.fileDescriptor))
        let output = process.standardOutput!   // asked for as a pipe: its reading end exists
        var acknowledged: [UInt64] = []
        var buffer: [UInt8] = []
        var killed = false
        while case let chunk = output.availableData, !chunk.isEmpty {
            buffer.append(contentsOf: chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                if let revision = UInt64(String(decoding: buffer[..<newline], as: UTF8.self)) {
                    acknowledged.append(revision)
                }
                buffer.removeSubrange(...newline)
            }
            if !killed, acknowledged.count >= killAfter {
                usleep(delay)
                process.send(SIGKILL)
                killed = true
            }
        }
        let status = process.waitUntilExit()
        guard killed, status == 128 + SIGKILL else {
            throw CrashWriterFailure(status: status, acknowledged: acknowledged.count)
        }
        return acknowledged
    }
}

/// The writer ended otherwise than by our SIGKILL.
struct CrashWriterFailure: Error, CustomStringConvertible {
    var status: Int32
    var acknowledged: Int
    var description: String {
        "journal-crash-writer ended by itself with status \(status) after \(acknowledged) acknowledged batches"
    }
}
