import Foundation
import GRDB
import StateSyncJournal

/// What `statesync verify --data DIR` found in a data directory: one line
/// per thing checked, and the problems among them.
///
/// ```swift
/// let report = SQLiteJournal.verify(directory: "./statesync-data")
/// for line in report.findings { print(line) }
/// exit(report.isIntact ? 0 : 1)
/// ```
public struct JournalVerification: Sendable, Hashable {
    /// What was checked and found, in order, problems included.
    public var findings: [String] = []
    /// The findings that are problems: acknowledged history lost, the file
    /// unreadable or inconsistent.
    public var problems: [String] = []

    /// Whether nothing is wrong.
    public var isIntact: Bool { problems.isEmpty }

    mutating func found(_ line: String) { findings.append(line) }

    mutating func problem(_ line: String) {
        findings.append("PROBLEM: " + line)
        problems.append(line)
    }
}

extension SQLiteJournal {
    /// Checks `directory` read-only and without its lock, so a running server's can be checked:
    /// that the file is a StateSync journal, `quick_check`, no gap in the kept entries, every
    /// entry after the newest snapshot, and no loss behind ``DurableRecord``. The other stores'
    /// file: ``SQLiteStores/verify(directory:fileName:)``.
    public static func verify(directory: String, fileName: String = "statesync.sqlite") -> JournalVerification {
        JournalVerification.checking(directory: directory, fileName: fileName, kind: .oneStore) { db, report in
            try report.checkEntries(db, scope: .wholeFile)
        } ?? JournalVerification()
    }
}

extension JournalVerification {
    /// Checks the file `fileName` of `kind` in `directory` read-only (record, log, schema,
    /// `quick_check`, `entries`, damage); `nil` when the stores' file and record never existed.
    static func checking(
        directory: String, fileName: String, kind: JournalFileKind,
        entries: (Database, inout JournalVerification) throws -> Void
    ) -> JournalVerification? {
        var report = JournalVerification()
        let folder = directory.hasSuffix("/") ? directory : directory + "/"
        let path = folder + fileName
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            report.problem("\(directory) is not a directory")
            return report
        }
        let recordPath = folder + kind.recordFileName
        let record = DurableRecord.read(path: recordPath)
        guard FileManager.default.fileExists(atPath: path) || record != .none || kind == .oneStore else { return nil }
        switch record {
        case .none: report.found("durable record: none (a directory of a server that never wrote one)")
        case .unreadable: report.problem("durable record \(recordPath) is unreadable")
        case .mark(let mark): report.found("durable record: \(kind.counted) \(mark.revision) of epoch \(mark.epoch)")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            report.problem("no journal file \(path)")
            return report
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int, size > 0 {
            report.found("write-ahead log: \(size) bytes (the server is running, or did not stop cleanly)")
        } else {
            report.found("write-ahead log: none (checkpointed at a clean stop)")
        }
        do {
            try JournalInspection.reading(path) { db in
                if try report.checkFile(db, path: path) { try entries(db, &report) }
            }
            if let damage = try JournalInspection.damage(path: path, recordPath: recordPath, kind: kind) {
                report.problem("\(damage)")
            }
        } catch {
            report.problem("cannot read the journal: \(SQLiteJournal.journalError(error, path: path, operation: "read the journal"))")
        }
        return report
    }

    /// The file's application id, schema version, epoch and `quick_check`;
    /// `false` when it is not a StateSync journal (nothing more to check).
    private mutating func checkFile(_ db: Database, path: String) throws -> Bool {
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        guard applicationID == JournalSchema.applicationID else {
            problem("\(path) is not a StateSync journal (application_id \(applicationID))")
            return false
        }
        let epoch = try String.fetchOne(db, sql: "SELECT value FROM statesync_meta WHERE key = 'epoch'") ?? "none"
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        found("journal: \(path), schema version \(version), epoch \(epoch)")
        let integrity = try String.fetchAll(db, sql: "PRAGMA quick_check")
        if integrity == ["ok"] {
            found("SQLite quick_check: ok")
        } else {
            for line in integrity.prefix(10) { problem("SQLite quick_check: \(line)") }
        }
        return true
    }

    /// The entries and snapshots of `scope`: no gap among the kept entries,
    /// and the newest snapshot followed by every entry after it.
    mutating func checkEntries(_ db: Database, scope: JournalScope) throws {
        let last = try JournalStatements.lastRevision(db, scope: scope)
        let oldest = try JournalStatements.oldestRevision(db, scope: scope)
        let totals = try JournalStatements.entryTotals(db, scope: scope)
        let snapshots = try JournalStatements.snapshotRevisions(db, scope: scope)
        found("entries: \(totals.count) (\(totals.bytes) bytes of actions), revisions \(oldest.map(String.init) ?? "none")…\(last)")
        found("snapshots: \(snapshots.isEmpty ? "none" : snapshots.map(String.init).joined(separator: ", "))")
        if let oldest, UInt64(totals.count) != last - oldest + 1 {
            problem("entries are missing: \(totals.count) entries for revisions \(oldest)…\(last)")
        }
        if let newest = snapshots.last, newest > last {
            problem("the newest snapshot (revision \(newest)) is past the journal's last revision \(last)")
        }
        let replayFrom = snapshots.last ?? 0
        if let oldest, oldest > replayFrom + 1 {
            problem("recovery cannot replay: entries start at revision \(oldest), the newest snapshot is at \(replayFrom)")
        }
        try reportSchemaVersions(db, scope: scope)
    }

    /// The app schema versions the kept entries and snapshots were written
    /// with, and how many of each (a file of the version before records
    /// none: all its rows are version 1).
    private mutating func reportSchemaVersions(_ db: Database, scope: JournalScope) throws {
        let recorded = try Bool.fetchOne(
            db, sql: "SELECT count(*) > 0 FROM pragma_table_info('journal') WHERE name = 'schema_version'") ?? false
        guard recorded else { return found("app schema versions: 1 (the file predates recording them)") }
        func counts(in table: String) throws -> String {
            let rows = try Row.fetchAll(
                db, sql: "SELECT schema_version, count(*) FROM \(table)\(scope.whereClause) GROUP BY schema_version ORDER BY schema_version",
                arguments: scope.arguments())
            return rows.isEmpty ? "none" : rows.map { "version \($0[0] as Int) ×\($0[1] as Int)" }.joined(separator: ", ")
        }
        found("app schema versions: entries \(try counts(in: "journal")); snapshots \(try counts(in: "snapshots"))")
    }
}
