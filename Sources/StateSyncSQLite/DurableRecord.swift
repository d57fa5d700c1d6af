#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StateSyncJournal

/// `statesync.durable`, beside the journal file: the epoch and the highest
/// revision the journal has reported durable (and acknowledged) so far
/// (`stores.durable`, beside the file the other stores share: its epoch and
/// its count of committed transactions, see ``JournalFileKind``).
/// On opening, a journal that ends before it (or has another epoch) lost
/// acknowledged history: ``SQLiteJournal`` refuses it, or starts a new epoch
/// when told to (``DamagedJournalPolicy``).
///
/// **Why outside the database.** Damage to the write-ahead log (or a lost
/// or replaced `-wal` file) rolls the database back to an older, consistent
/// state: a record kept inside it would roll back with it and agree.
///
/// **Why it never gives a false alarm.** The writer records a revision only
/// after SQLite's commit of it returned, which is after its fsync
/// (`synchronous = FULL`). SQLite never loses a committed transaction
/// unless its files are damaged, and retention never deletes the newest
/// entry; so an intact journal always ends at or after the recorded
/// revision. A crash between the commit and the record leaves an older
/// record (weaker, still true); a torn write of the record itself (power
/// loss) fails its checksum and the record is ignored with a warning.
///
/// **Cost.** One `pwrite` of 128 bytes into the page cache per group
/// commit, without an fsync of its own (the file is fsynced at a clean
/// close): it survives a crash of the process, which is when a damaged
/// log would otherwise go unnoticed; after a power loss it may be older.
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
