import GRDB

/// Which rows of a journal file a statement reads or writes: all of them
/// (a file of one store, ``SQLiteJournal`` alone), or one store's in the
/// file every store other than `main` shares (``SQLiteStores``), whose
/// tables lead with a `store_id` column.
///
/// It renders the `store_id` column and predicate into the SQL and puts the
/// store's id first in the arguments: the SQL text differs between the two
/// kinds of file but never from one store to another, so each statement is
/// prepared and cached once per connection, not once per store.
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

    /// `values` with the store's id first (as many times as the SQL names it).
    ///
    /// `values` is an array literal at each call site, which GRDB's own
    /// `ExpressibleByArrayLiteral` turns into arguments: its initializer
    /// from a `Sequence` is generic and not specialized across modules,
    /// and cost an entry's write about a fifth more (`journal-benchmarks`).
    func arguments(_ values: StatementArguments = []) -> StatementArguments {
        guard let storeID else { return values }
        return [storeID] + values
    }
}
