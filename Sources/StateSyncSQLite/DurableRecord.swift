#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StateSyncJournal

/// `statesync.durable` beside the journal file: the epoch and the highest revision reported
/// durable (`stores.durable`: the stores' file's count of committed transactions). A journal
/// that ends before it at open lost acknowledged history (``DamagedJournalPolicy``).
/// It lives outside the database because WAL damage rolls the database back, and a record
/// inside would roll back with it. No false alarm: a revision is recorded only after its
/// fsynced commit, and retention keeps the newest entry; a torn record fails its checksum.
/// One unsynced 128-byte `pwrite` per group commit: it survives a crash of the process.
final class DurableRecord: Sendable {
    /// The record's fixed size: each write replaces it whole.
    private static let size = 128

    /// An epoch and a revision durable in it.
    struct Mark: Sendable, Hashable {
        /// The journal's epoch.
        var epoch: String
        /// The highest durable revision.
        var revision: UInt64
    }

    /// What reading the record found.
    enum Contents: Sendable, Hashable {
        /// There is no record (a new directory, or one older than records).
        case none
        /// A valid record.
        case mark(Mark)
        /// A record that does not parse or fails its checksum.
        case unreadable
    }

    private let descriptor: Int32

    /// Opens (creating) the record at `path` for writing.
    init(path: String) throws(JournalError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .notWritable(path, reason: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
    }

    /// Reads the record at `path`.
    static func read(path: String) -> Contents {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT ? .none : .unreadable }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: size)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, size, 0) }
        guard count > 0 else { return count == 0 ? .none : .unreadable }
        return parse(String(decoding: bytes[..<count], as: UTF8.self))
    }

    /// Replaces the record with `mark`; returns whether the write succeeded.
    func write(_ mark: Mark) -> Bool {
        var bytes = Array(Self.text(mark).utf8)
        bytes += [UInt8](repeating: UInt8(ascii: " "), count: max(0, Self.size - 1 - bytes.count))
        bytes.append(UInt8(ascii: "\n"))
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return written == bytes.count
    }

    /// Flushes the record to disk (at a clean close) and closes it.
    func flushAndClose() {
        _ = fsync(descriptor)
        _ = close(descriptor)
    }

    /// `statesync-durable 1 EPOCH REVISION CHECK`, CHECK being the FNV-1a
    /// hash of the text before it in hexadecimal.
    static func text(_ mark: Mark) -> String {
        let body = "statesync-durable 1 \(mark.epoch) \(mark.revision)"
        return body + " " + String(checksum(body), radix: 16)
    }

    /// The mark in `text`, if it is a valid record.
    static func parse(_ text: String) -> Contents {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count == 5, fields[0] == "statesync-durable", fields[1] == "1",
              let revision = UInt64(fields[3]),
              fields[4] == String(checksum(fields[0...3].joined(separator: " ")), radix: 16)
        else { return .unreadable }
        return .mark(Mark(epoch: String(fields[2]), revision: revision))
    }

    /// FNV-1a, 64 bits: enough to tell a torn or foreign record apart.
    private static func checksum(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
