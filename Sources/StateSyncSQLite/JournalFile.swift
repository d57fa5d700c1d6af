import Dispatch
import GRDB
import Logging
import StateSyncJournal

/// A journal file opened for writing, with its data directory's lock, durable record
/// (``DurableMarker``), GRDB pool (one writer, two readers, WAL, `synchronous = FULL`),
/// epoch and counted value; both ``JournalFileKind``s open this way.
struct JournalFile: Sendable {
    /// The file's path.
    let path: String
    /// The file's pool.
    let pool: DatabasePool
    /// The lock and durable record, released when the file closes.
    let marker: DurableMarker
    /// The file's last revision (one store) or committed transactions (the stores').
    let count: UInt64

    /// Opens (or creates) the file `fileName` of `kind` in `directory`, taking its lock; a
    /// file behind its durable record follows `policy`.
    static func open(
        directory path: String, fileName: String, kind: JournalFileKind, policy: DamagedJournalPolicy, logger: Logger
    ) throws -> JournalFile {
        let directory = try DataDirectory(path: path, lockFileName: kind.lockFileName)
        let file = directory.file(fileName)
        var record: DurableRecord?
        do {
            let damage = try JournalInspection.damage(path: file, recordPath: directory.file(kind.recordFileName), kind: kind)
            if let damage, policy == .refuse {
                throw JournalError.damaged(file, damage: damage.description, remedy: """
                    Run `statesync verify --data \(path)` to see what is there; \
                    to serve what is left under a new epoch (clients reload their state), start with \
                    --on-damaged-journal new-epoch
                    """)
            }
            record = try DurableRecord(path: directory.file(kind.recordFileName))
            let pool = try openPool(file, label: kind == .oneStore ? "statesync.journal" : "statesync.stores")
            var epoch = try pool.writeWithoutTransaction { try JournalSchema.prepare($0, path: file, kind: kind) }
            let count = try pool.read { try kind.durableCount($0) }
            if let damage {
                epoch = try pool.write { try JournalSchema.startNewEpoch($0, kind: kind) }
                logger.critical(
                    "the journal was damaged: serving what is left under a new epoch (--on-damaged-journal new-epoch)",
                    metadata: ["path": "\(file)", "damage": "\(damage)", "epoch": "\(epoch)", "\(kind.counted)": "\(count)"])
            }
            if record?.write(DurableRecord.Mark(epoch: epoch, revision: count)) != true {
                throw JournalError.notWritable(path, reason: "cannot write \(kind.recordFileName)")
            }
            return JournalFile(
                path: file, pool: pool, marker: DurableMarker(directory: directory, record: record!, epoch: epoch), count: count)
        } catch {
            record?.flushAndClose()
            directory.unlock()
            throw SQLiteJournal.journalError(error, path: file, operation: "open the journal")
        }
    }

    /// The file's epoch.
    var epoch: String { marker.epoch }

    /// The page cache of each connection, in KiB (SQLite's default is 2,000): a file holds at
    /// most 1.5 MiB of cached pages, however many stores it holds.
    static let pageCacheKiB = 512

    /// A pool on `path` whose writer commits with `synchronous = FULL` (GRDB
    /// sets NORMAL when it enables WAL; this sets FULL and checks that it holds).
    private static func openPool(_ path: String, label: String) throws -> DatabasePool {
        var options = GRDB.Configuration()
        options.label = label
        options.maximumReaderCount = 2
        // `temp_store = MEMORY` keeps the savepoints' statement journals in memory: the stores'
        // combined transaction would otherwise spill them to a temporary file past 64 KiB.
        options.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -\(pageCacheKiB); PRAGMA temp_store = MEMORY") }
        let pool = try DatabasePool(path: path, configuration: options)
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            let mode = try Int.fetchOne(db, sql: "PRAGMA synchronous")
            guard mode == 2 else {
                throw JournalError.sqlite(path, operation: "set synchronous = FULL", "it reads back as \(mode ?? -1)")
            }
        }
        return pool
    }

    /// Checkpoints the log into the database and truncates it (a stopped
    /// server leaves no log whose damage could roll history back), closes
    /// the file and releases the lock.
    func close(logger: Logger) async -> Result<Void, JournalError> {
        defer { marker.release() }
        do {
            _ = try await pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            try pool.close()
            logger.info("journal closed", metadata: ["path": "\(path)"])
            return .success(())
        } catch {
            return .failure(SQLiteJournal.journalError(error, path: path, operation: "close the journal"))
        }
    }

    /// Runs `body` on a background thread (opening reads files and may
    /// wait for a lock), so that it blocks no event loop or task.
    static func onBackgroundThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }
}
