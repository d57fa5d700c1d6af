import Foundation
import Logging
import StateSyncCore
import StateSyncJournal
import StateSyncSQLite


// Journal append throughput against raw write+fsync on a plain file, in one
// run. Run: swift run -c release journal-benchmarks [DIRECTORY]
// (default: a fresh directory under the system temporary directory; use a
// directory on the disk the server will use). Prints the table for
// BENCHMARKS.md ("## Journal and SQLite").

let root = CommandLine.arguments.count > 1
    ? CommandLine.arguments[1]
    : NSTemporaryDirectory() + "statesync-journal-bench-\(getpid())"
let logger = Logger(label: "journal-benchmarks", factory: { _ in SwiftLogNoOpLogHandler() })
let measuredSeconds = 1.5
let repeats = 3

/// ~200-byte entries like a small app action.
func makeBatch(after revision: UInt64, size: Int) -> JournalBatch {
    let padding = String(repeating: "x", count: 170)
    return JournalBatch(entries: (1...UInt64(size)).map { offset in
        let revision = revision + offset
        return JournalEntry(
            meta: Meta(revision: revision, clientID: "c-bench", time: Date()),
            actionID: "a\(revision)",
            action: Array(#"{"type":"say","text":"\#(padding)","n":\#(revision)}"#.utf8))
    })
}

/// Calls `body` until `measuredSeconds` have passed; returns calls per second.
func rate(_ body: () async throws -> Void) async rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    var calls = 0
    var elapsed = 0.0
    repeat {
        try await body()
        calls += 1
        elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    } while elapsed < measuredSeconds
    return Double(calls) / elapsed
}

/// Baseline: `write` of the same bytes, then `fsync`, on a plain file.
func rawFsyncRate(bytesPerBatch: Int, in directory: String) async -> Double {
    let path = directory + "/raw-\(bytesPerBatch).log"
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    precondition(descriptor >= 0, "cannot create \(path)")
    defer {
        close(descriptor)
        unlink(path)
    }
    let bytes = [UInt8](repeating: 0x61, count: bytesPerBatch)
    return await rate {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        precondition(written == bytes.count && fsync(descriptor) == 0, "write+fsync failed on \(path)")
    }
}

/// Sequential appends: the next batch waits for the previous one's durability.
func journalCommitRate(batchSize: Int, in directory: String) async throws -> Double {
    let journal = try await SQLiteJournal.open(configuration: .init(directory: directory), logger: logger)
    let commits = try await rate {
        try await journal.append(makeBatch(after: journal.lastRevision, size: batchSize))
    }
    try await journal.close()
    return commits
}

/// Pipelined appends of single entries with up to `inFlight` outstanding, as
/// a sequencer that does not wait: the journal's group commit writes what
/// arrived during one fsync in the next transaction. Returns entries/s.
func pipelinedEntryRate(_ journal: SQLiteJournal, inFlight: Int) -> Double {
    let slots = DispatchSemaphore(value: inFlight)
    var revision = journal.lastRevision
    let start = DispatchTime.now().uptimeNanoseconds
    var elapsed = 0.0
    var appended = 0
    repeat {
        slots.wait()
        journal.append(makeBatch(after: revision, size: 1)) { result in
            if case .failure(let error) = result { fatalError("append failed: \(error)") }
            slots.signal()
        }
        revision += 1
        appended += 1
        elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    } while elapsed < measuredSeconds
    for _ in 0..<inFlight { slots.wait() }
    elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    // libdispatch traps when a semaphore dies below its initial value.
    for _ in 0..<inFlight { slots.signal() }
    return Double(appended) / elapsed
}

func format(_ value: Double) -> String {
    let digits = String(Int(value.rounded()))
    var grouped = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
        grouped.append(digit)
    }
    return grouped
}

/// Best of `repeats` runs of a baseline and a candidate, alternating so
/// that both see the same background load (other builds share the disk).
func bestAlternating(_ baseline: () async throws -> Double, _ candidate: () async throws -> Double)
    async rethrows -> (baseline: Double, candidate: Double)
{
    var best = (baseline: 0.0, candidate: 0.0)
    for _ in 0..<repeats {
        best.baseline = max(best.baseline, try await baseline())
        best.candidate = max(best.candidate, try await candidate())
    }
    return best
}

try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: root) }  // cleanup of benchmark files only
let entryBytes = makeBatch(after: 0, size: 1).entries[0].action.count

print("Entries of \(entryBytes) bytes of action JSON; best of \(repeats) runs of \(measuredSeconds) s each; in \(root).\n")
print("| batch size | raw write+fsync/s | journal commits (= fsyncs)/s | journal entries/s | commits ÷ raw fsyncs |")
print("|---:|---:|---:|---:|---:|")
var run = 0
for batchSize in [1, 10, 100, 1_000] {
    let (raw, commits) = try await bestAlternating(
        { await rawFsyncRate(bytesPerBatch: batchSize * entryBytes, in: root) },
        {
            run += 1
            return try await journalCommitRate(batchSize: batchSize, in: root + "/journal-\(run)")
        })
    let ratio = String(format: "%.2f", commits / raw)
    print("| \(batchSize) | \(format(raw)) | \(format(commits)) | \(format(commits * Double(batchSize))) | \(ratio)x |")
}

print("\nPipelined single-entry appends (group commit coalesces what arrives during an fsync):\n")
print("| in flight | raw write+fsync/s (1 entry) | journal entries/s | entries/s ÷ raw fsyncs/s |")
print("|---:|---:|---:|---:|")
for inFlight in [1, 64, 1_024] {
    run += 1
    let journal = try await SQLiteJournal.open(
        configuration: .init(directory: root + "/journal-\(run)"), logger: logger)
    let (raw, entries) = await bestAlternating(
        { await rawFsyncRate(bytesPerBatch: entryBytes, in: root) },
        { pipelinedEntryRate(journal, inFlight: inFlight) })
    try await journal.close()
    print("| \(inFlight) | \(format(raw)) | \(format(entries)) | \(String(format: "%.1f", entries / raw))x |")
}
