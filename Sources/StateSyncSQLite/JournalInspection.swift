import Foundation
import GRDB
import StateSyncJournal

/// A read-only look at a journal file: its epoch and last revision, read
/// without writing anything (a read-only connection never checkpoints, so
/// a damaged write-ahead log stays as it was found, for `statesync verify`
/// or an operator to examine).
struct JournalInspection: Sendable {
    /// The file's epoch.
    var epoch: String
    /// Its highest revision (0 when it has no entry).
    var lastRevision: UInt64

    /// Opens `path` read-only and runs `body` on it.
    static func reading<T>(_ path: String, _ body: (Database) throws -> T) throws -> T {
        var options = GRDB.Configuration()
        options.readonly = true
        options.label = "statesync.inspection"
        let queue = try DatabaseQueue(path: path, configuration: options)
        defer { try? queue.close() }  // a read-only connection has nothing to flush
        return try queue.read(body)
    }

    /// The epoch and last revision of the journal at `path`.
    static func read(path: String) throws -> JournalInspection {
        try reading(path) { db in
            guard let epoch = try String.fetchOne(db, sql: "SELECT value FROM statesync_meta WHERE key = 'epoch'") else {
                throw JournalError.notAJournal(path, reason: "it has no epoch")
            }
            return JournalInspection(epoch: epoch, lastRevision: try JournalStatements.lastRevision(db))
        }
    }

    /// Why the journal at `path` is behind `record` (see ``DurableRecord``):
    /// `nil` when it is not (or nothing was recorded). Reads the record
    /// before the journal, so that a server writing meanwhile can only make
    /// the journal further ahead.
    static func damage(path: String, recordPath: String) throws -> JournalDamage? {
        guard case .mark(let mark) = DurableRecord.read(path: recordPath), mark.revision > 0 else { return nil }
        guard FileManager.default.fileExists(atPath: path) else {
            return JournalDamage(recorded: mark, found: "the journal file is missing")
        }
        let found = try read(path: path)
        if found.epoch != mark.epoch {
            return JournalDamage(recorded: mark, found: "the journal has another epoch, \(found.epoch), ending at revision \(found.lastRevision)")
        }
        if found.lastRevision < mark.revision {
            return JournalDamage(recorded: mark, found: "the journal ends at revision \(found.lastRevision)")
        }
        return nil
    }
}

/// A journal behind its durable record: what was recorded and what is there.
struct JournalDamage: Sendable, Hashable, CustomStringConvertible {
    /// The epoch and revision recorded as durable.
    var recorded: DurableRecord.Mark
    /// What the journal holds instead, in words.
    var found: String

    /// One sentence for logs and `statesync verify`.
    var description: String {
        "revision \(recorded.revision) of epoch \(recorded.epoch) was acknowledged as durable, but \(found): acknowledged history was lost (a damaged, missing or replaced journal or write-ahead log)"
    }
}
