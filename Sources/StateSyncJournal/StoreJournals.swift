public import Logging

/// The journals of a server's stores from one storage they share (one database
/// keyed by store, `statesync serve --postgres`): a journal per store, opened and
/// closed with the store, while what they share stays open until ``close()``.
/// Store names follow the protocol (1 to 64 of `a`–`z`, `0`–`9`, `.`, `_`, `-`);
/// the storage keys them as it likes, as long as no two names share a key.
///
/// The server opens a store at most once at a time, closes its journal before
/// ``remove(_:)``, and calls ``close()`` once, after every journal is closed.
///
/// ```swift
/// // A server opens them when it starts and closes them after its stores:
/// configuration.storage = .journals("postgres \(location)") { logger in
///     try await PostgresStores.open(location: location, logger: logger)
/// }
/// ```
public protocol StoreJournals: Sendable {
    /// Opens the journal of `store`, creating the store when missing; `writeFailed`
    /// runs on each failed write attempt, for `statesync_journal_write_failures_total`.
    func open(_ store: String, logger: Logger, writeFailed: @escaping @Sendable () -> Void) async throws -> any Journal

    /// Whether `store` exists, as far as this server knows now (another
    /// server may have created it a moment ago). Must not block: the server
    /// asks under a lock.
    func exists(_ store: String) -> Bool

    /// The names of the stores that exist as far as this server knows, in any order.
    /// May read the storage, so the server never asks under a lock.
    func names() -> [String]

    /// How many stores exist, as far as this server knows now: what a
    /// server counts against its limit of stores when it starts. The
    /// default counts ``names()``.
    var storeCount: Int { get }

    /// Up to `limit` store names after `after` (from the first when `nil`), in
    /// ascending order: one page of a listing. The default sorts ``names()``.
    func names(after: String?, limit: Int) async -> [String]

    /// Why the storage every store shares has failed for good, if it has
    /// (until a restart): a server reports it in `/health` (503 `failed`),
    /// whichever store met it. `nil` by default.
    var failure: String? { get }

    /// The secret by which the servers sharing this storage prove it to each other
    /// (one forwards writes to another), or `nil` when not shared (the default).
    var clusterSecret: String? { get }

    /// Records `address` (`host:port`) as where the other servers sharing
    /// this storage reach this one; the server calls it once it listens.
    /// Does nothing by default.
    func advertise(address: String)

    /// Deletes everything `store` holds at once (one transaction where possible),
    /// after the server closed its journal; when it throws, nothing was deleted.
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
