import Logging
import PostgresNIO
import Synchronization

/// The stores in a database as one node knows them (`statesync_stores`'
/// ids), so that a server can ask whether a store exists, or list them,
/// without a round trip under its lock.
///
/// Loaded when the node opens, then kept current by the node's own
/// creations and deletions, the other nodes' (their `NOTIFY`, see
/// ``PostgresHeadWatcher``), and a reload whenever the LISTEN connection
/// (re)connects. So it lags another node's creation by a notification's
/// delay, or by a lost LISTEN connection's reconnect.
///
/// Names map to ids one to one (``PostgresStores/storeID(of:)``): `main`
/// is `default` (the id of the one store before there were several, so
/// that existing databases keep their data), every other store `store:NAME`
/// (no store name holds a `:`, so a store *named* `default` is `store:default`).
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
