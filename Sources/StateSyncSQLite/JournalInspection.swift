import Foundation
import GRDB
import StateSyncJournal

/// A read-only look at a journal file: its epoch and the count its durable record follows.
/// A read-only connection never checkpoints, so a damaged log stays as found for `statesync verify`.
struct JournalInspection: Sendable {
    /// The file's epoch.
    var epoch: String
    /// Its last revision (one store) or its committed transactions (the stores' file).
    var count: UInt64

    /// Opens `path` read-only and runs `body` on it.
    static func reading<T>(_ path: String, _ body: (Database) throws -> T) throws -> T {
        var options = GRDB.Configuration()
        options.readonly = true
        options.label = "statesync.inspection"
        let queue = try DatabaseQueue(path: path, configuration: options)
        defer { try? queue.close() }  // a read-only connection has nothing to flush
        return try queue.read(body)
    }

    /// The epoch and count of the journal file of `kind` at `path`.
    static func read(path: String, kind: JournalFileKind) throws -> JournalInspection {
        try reading(path) { db in
            guard let epoch = try String.fetchOne(db, sql: "SELECT value FROM statesync_meta WHERE key = 'epoch'") else {
                throw JournalError.notAJournal(path, reason: "it has no epoch")
            }
            return JournalInspection(epoch: epoch, count: try kind.durableCount(db))
        }
    }

    /// Why the journal file at `path` is behind `record` (``DurableRecord``), or `nil`. Reads
    /// the record first, so a server writing meanwhile can only put the journal further ahead.
    static func damage(path: String, recordPath: String, kind: JournalFileKind) throws -> JournalDamage? {
        guard case .mark(let mark) = DurableRecord.read(path: recordPath), mark.revision > 0 else { return nil }
        let damage = { (found: String) in JournalDamage(recorded: mark, counted: kind.counted, found: found) }
        guard FileManager.default.fileExists(atPath: path) else { return damage("the journal file is missing") }
        let found = try read(path: path, kind: kind)
        if found.epoch != mark.epoch {
            return damage("the journal has another epoch, \(found.epoch), ending at \(kind.counted) \(found.count)")
        }
        if found.count < mark.revision {
            return damage("the journal ends at \(kind.counted) \(found.count)")
        }
        return nil
    }
}

/// A journal behind its durable record: what was recorded and what is there.
struct JournalDamage: Sendable, Hashable, CustomStringConvertible {
    /// The epoch and count recorded as durable.
    var recorded: DurableRecord.Mark
    /// What the count is: `revision` or `commit` (``JournalFileKind/counted``).
    var counted: String
    /// What the journal holds instead, in words.
    var found: String

    /// One sentence for logs and `statesync verify`.
    var description: String {
        "\(counted) \(recorded.revision) of epoch \(recorded.epoch) was acknowledged as durable, but \(found): acknowledged history was lost (a damaged, missing or replaced journal or write-ahead log)"
    }
}
