import GRDB

/// What `statesync verify --data DIR` found in the stores' file
/// (``SQLiteStores/verify(directory:fileName:)``): the file's own checks and
/// each store's.
public struct StoresVerification: Sendable, Hashable {
    /// One store's checks.
    public struct Store: Sendable, Hashable {
        /// The store's name.
        public var name: String
        /// Its epoch, entries and snapshots, problems included.
        public var report: JournalVerification
    }

    /// The file's checks (durable record, log, schema, `quick_check`,
    /// damage); empty when there is no stores' file.
    public var file = JournalVerification()
    /// Each store's checks, in name order.
    public var stores: [Store] = []

    /// Whether nothing is wrong, in the file or any store.
    public var isIntact: Bool { problemCount == 0 }

    /// The number of problems, the file's and every store's.
    public var problemCount: Int { file.problems.count + stores.reduce(0) { $0 + $1.report.problems.count } }
}

extension SQLiteStores {
    /// Checks the stores' file of `directory` read-only, without its lock: the file as
    /// ``SQLiteJournal/verify(directory:fileName:)`` checks `main`'s, its commit count against its
    /// durable record, and each store's entries and snapshots. No file and no record is intact.
    public static func verify(directory: String, fileName: String = "stores.sqlite") -> StoresVerification {
        var stores: [StoresVerification.Store] = []
        let file = JournalVerification.checking(directory: directory, fileName: fileName, kind: .stores) { db, _ in
            for (name, id) in try StoresSchema.catalog(db) {
                var report = JournalVerification()
                report.found("epoch \(try StoresSchema.epoch(ofStore: id, in: db) ?? "none")")
                try report.checkEntries(db, scope: .store(id))
                stores.append(StoresVerification.Store(name: name, report: report))
            }
        }
        return StoresVerification(file: file ?? JournalVerification(), stores: stores)
    }
}
