public import Logging

/// The journals of a server's stores from one storage they share (one
/// database keyed by store, `statesync serve --postgres`): a journal per
/// store, opened when the store opens and closed when it closes, while what
/// they share (connections, a listener) stays open until ``close()``.
///
/// Stores are named as in the protocol (`main`, `team-42`: 1 to 64 of
/// `a`–`z`, `0`–`9`, `.`, `_`, `-`); how a name is keyed in the storage is
/// the storage's business, as long as no two names share a key.
///
/// The server calls ``open(_:logger:writeFailed:)`` at most once per store
/// at a time, closes each journal it opened before calling
/// ``remove(_:)`` for that store, and calls ``close()`` once, after every
/// journal it opened is closed.
///
/// ```swift
/// // A server opens them when it starts and closes them after its stores:
/// configuration.storage = .journals("postgres \(location)") { logger in
///     try await PostgresStores.open(location: location, logger: logger)
/// }
/// ```
public protocol StoreJournals: Sendable {
    /// Opens the journal of `store`, creating the store when it does not
    /// exist; `writeFailed` is called on each failed write attempt (each
    /// retry too), for `statesync_journal_write_failures_total`.
    ///
    /// - Throws: ``JournalError``: the storage cannot be reached, or failed.
    func open(_ store: String, logger: Logger, writeFailed: @escaping @Sendable () -> Void) async throws -> any Journal

    /// Whether `store` exists, as far as this server knows now (another
    /// server may have created it a moment ago). Must not block: the server
    /// asks under a lock.
    func exists(_ store: String) -> Bool

    /// The names of the stores that exist, as far as this server knows
    /// now, in any order. May read the storage (SQLite reads its file, to
    /// keep no name in memory): the server asks for listings and at start,
    /// never under a lock.
    func names() -> [String]

    /// How many stores exist, as far as this server knows now: what a
    /// server counts against its limit of stores when it starts. The
    /// default counts ``names()``.
    var storeCount: Int { get }

    /// Up to `limit` names of the stores that exist, in ascending order,
    /// after `after` (from the first when `nil`): one page of a listing,
    /// which a storage reads without going through every name. The
    /// default sorts ``names()``.
    func names(after: String?, limit: Int) async -> [String]

    /// Why the storage every store shares has failed for good, if it has
    /// (until a restart): a server reports it in `/health` (503 `failed`),
    /// whichever store met it. `nil` by default.
    var failure: String? { get }

    /// The secret with which the servers sharing this storage prove to each
    /// other that they do (a cluster: one forwards to another the writes
    /// of a store that other one writes), or `nil` when the storage is not
    /// shared. `nil` by default.
    var clusterSecret: String? { get }

    /// Records `address` (`host:port`) as where the other servers sharing
    /// this storage reach this one; the server calls it once it listens.
    /// Does nothing by default.
    func advertise(address: String)

    /// Deletes everything `store` holds, at once (in one transaction where
    /// the storage has them). The server closed its journal first.
    ///
    /// - Throws: ``JournalError``: the storage failed; nothing was deleted.
    func remove(_ store: String) async throws

    /// Closes what the journals share; the server calls it once, after
    /// every journal it opened is closed.
    func close() async throws
}

extension StoreJournals {
    /// Counts every name: for a storage that holds its names in memory.
    public var storeCount: Int { names().count }

    /// Sorts every name and keeps the page: for a storage that holds its
    /// names in memory.
    public func names(after: String?, limit: Int) async -> [String] {
        Array(names().filter { name in after.map { name > $0 } ?? true }.sorted().prefix(max(0, limit)))
    }

    /// No shared failure: a storage whose stores fail one by one (each
    /// journal's own ``Journal/writeFault``), or that reports its failure
    /// through every journal.
    public var failure: String? { nil }

    /// Not shared: no secret.
    public var clusterSecret: String? { nil }

    /// Not shared: nobody to tell.
    public func advertise(address: String) {}
}
