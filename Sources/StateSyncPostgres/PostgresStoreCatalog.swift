import Logging
import PostgresNIO
import Synchronization

/// The stores in a database as one node knows them (`statesync_stores`' ids), so that a
/// server asks whether a store exists without a round trip under its lock. Loaded at open,
/// kept current by this node's changes, other nodes' `NOTIFY` (``PostgresHeadWatcher``) and
/// a reload on each LISTEN reconnect, so it lags another node's creation by that much.
/// Names map to ids one to one (``PostgresStores/storeID(of:)``): `main` is `default`, so
/// existing databases keep their data, every other store `store:NAME` (names hold no `:`).
final class PostgresStoreCatalog: Sendable {
    /// The id of the store `main`.
    static let mainID = "default"
    private static let prefix = "store:"

    private let ids = Mutex<Set<String>>([])
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// The id of the store named `name` in every table.
    static func storeID(of name: String) -> String {
        name == "main" ? mainID : prefix + name
    }

    /// The name of the store whose id is `id`, or `nil` for an id that no
    /// name maps to (a ``PostgresJournal`` opened with another ``PostgresJournal/Configuration/storeID``).
    static func name(ofStoreID id: String) -> String? {
        if id == mainID { return "main" }
        guard id.hasPrefix(prefix), id.count > prefix.count else { return nil }
        return String(id.dropFirst(prefix.count))
    }

    /// Reads every store's id again; a failure keeps the ids known (the
    /// next reload, or a notification, corrects them).
    func reload(from reader: ReconnectingConnection) async {
        do {
            let found = try await reader.run("SELECT store_id FROM statesync_stores", logger: logger).decode(String.self)
            ids.withLock { $0 = Set(found) }
        } catch {
            logger.warning("reading the list of stores failed", metadata: ["error": "\(PostgresFailure.message(error))"])
        }
    }

    /// Whether the store with id `id` exists.
    func contains(_ id: String) -> Bool {
        ids.withLock { $0.contains(id) }
    }

    /// The names of the stores, in no order.
    func names() -> [String] {
        ids.withLock { ids in ids.compactMap(Self.name(ofStoreID:)) }
    }

    /// The store with id `id` was created.
    func insert(_ id: String) {
        _ = ids.withLock { $0.insert(id) }
    }

    /// The store with id `id` was deleted.
    func remove(_ id: String) {
        _ = ids.withLock { $0.remove(id) }
    }
}
