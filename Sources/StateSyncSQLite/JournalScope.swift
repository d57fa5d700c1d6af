import GRDB

/// Which rows of a journal file a statement reads or writes: all (``SQLiteJournal`` alone)
/// or one store's in the file the other stores share (``SQLiteStores``). The SQL differs by
/// kind of file, never by store (the id is an argument), so each statement is cached once.
///
/// ```swift
/// let sql = "SELECT max(revision) FROM journal\(scope.whereClause)"
/// try Int64.fetchOne(db, sql: sql, arguments: scope.arguments())
/// ```
struct JournalScope: Sendable, Hashable {
    /// The store's id in the shared file, `nil` for a file of one store.
    let storeID: Int64?

    /// Every row of a file of one store.
    static let wholeFile = JournalScope(storeID: nil)

    /// The rows of the store `id` in the shared file.
    static func store(_ id: Int64) -> JournalScope { JournalScope(storeID: id) }

    /// ` WHERE store_id = ?`, or nothing.
    var whereClause: String { storeID == nil ? "" : " WHERE store_id = ?" }
    /// `store_id = ? AND `, to put before a condition, or nothing.
    var condition: String { storeID == nil ? "" : "store_id = ? AND " }
    /// `store_id, `, to put before the columns of an `INSERT`, or nothing.
    var column: String { storeID == nil ? "" : "store_id, " }
    /// `?, `, to put before the values of an `INSERT`, or nothing.
    var placeholder: String { storeID == nil ? "" : "?, " }

    /// `values` with the store's id first (as many times as the SQL names it). Call sites pass
    /// an array literal: GRDB's generic `Sequence` initializer is not specialized across modules.
    func arguments(_ values: StatementArguments = []) -> StatementArguments {
        guard let storeID else { return values }
        return [storeID] + values
    }
}
