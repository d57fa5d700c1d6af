import Logging
import PostgresNIO
import StateSyncJournal
import Synchronization

/// One writer per store among a cluster's nodes: a lease row per store in
/// `statesync_leases`, timed on PostgreSQL's clock (`now()`), so nodes' clocks need not
/// agree. Every ``PostgresNode/leaseRenewal`` one statement renews the node's leases,
/// takes free or expired ones (the term goes up) and reads who holds the others.
/// The lease decides who should write, not who can (the compare-and-set still refuses
/// stale batches); a node counts a lease as its own only until its last renewal's start
/// plus ``PostgresNode/leaseDuration`` by its own clock, never later than PostgreSQL's expiry.
final class PostgresLeases: Sendable {
    private struct State {
        /// What each watched store's journals are told, by watch token.
        var watchers: [String: [Int: @Sendable (StoreWriter) -> Void]] = [:]
        /// The store of each watch token.
        var stores: [Int: String] = [:]
        var nextToken = 0
        /// The writer each watched store was last known to have.
        var writers: [String: StoreWriter] = [:]
        /// Until when, by this node's clock, each lease it holds is surely its own.
        var heldUntil: [String: ContinuousClock.Instant] = [:]
        /// Stores closed here whose lease, if held, the next round gives up.
        var released: Set<String> = []
        var task: Task<Void, Never>?
        /// The loop's wait for its next round, cut short by ``wake()``.
        var pause: Task<Void, Never>?
        /// A wake-up that came while no wait was under way.
        var woken = false
        var stopped = false
        /// Whether the last round failed (logged once until one succeeds).
        var failing = false
    }

    /// A lease as a round read it.
    private struct Lease {
        let node: String
        let address: String?
    }

    let node: PostgresNode
    /// Where the other nodes reach this one, recorded with each lease it holds.
    private let address: Mutex<String?>
    private let connection: ReconnectingConnection
    private let logger: Logger
    private let state = Mutex(State())

    /// Leases of `node`, kept on `connection` (a connection of their own).
    init(node: PostgresNode, connection: ReconnectingConnection, logger: Logger) {
        self.node = node
        address = Mutex(node.address)
        self.connection = connection
        self.logger = logger
    }

    /// Tells `change` the writer of `storeID` each time it changes, until
    /// ``unwatch(_:)`` with the returned token; the node tries to take the
    /// store's lease from now on. `nil` once stopped.
    func watch(storeID: String, change: @escaping @Sendable (StoreWriter) -> Void) -> Int? {
        state.withLock { state in
            guard !state.stopped else { return nil }
            let token = state.nextToken
            state.nextToken += 1
            state.watchers[storeID, default: [:]][token] = change
            state.stores[token] = storeID
            state.released.remove(storeID)
            if state.task == nil {
                state.task = Task { await self.run() }
            } else {
                Self.wake(&state)
            }
            return token
        }
    }

    /// Records `address` with the leases held here from the next round on,
    /// which starts at once.
    func advertise(_ address: String) {
        self.address.withLock { $0 = address }
        state.withLock { Self.wake(&$0) }
    }

    /// Stops telling the watcher of `token`; the store's lease is given up
    /// when no other journal of it is open here.
    func unwatch(_ token: Int) {
        state.withLock { state in
            guard let store = state.stores.removeValue(forKey: token) else { return }
            state.watchers[store]?[token] = nil
            guard state.watchers[store]?.isEmpty != false else { return }
            state.watchers[store] = nil
            state.writers[store] = nil
            if state.heldUntil.removeValue(forKey: store) != nil {
                state.released.insert(store)
                Self.wake(&state)
            }
        }
    }

    /// Stops renewing, gives up every lease held here and closes the connection.
    func stop() async {
        let (task, held) = state.withLock { state in
            state.stopped = true
            state.watchers = [:]
            state.stores = [:]
            let held = Set(state.heldUntil.keys).union(state.released)
            state.heldUntil = [:]
            state.released = []
            return (state.task, held)
        }
        task?.cancel()
        await task?.value
        if !held.isEmpty { try? await release(held) }   // best effort: they expire anyway
        try? await connection.close()   // a connection that fails to close is gone anyway
    }

    /// Runs a round every ``PostgresNode/leaseRenewal``, or sooner when woken.
    private func run() async {
        while !Task.isCancelled {
            await round()
            let pause = Task<Void, Never> { _ = try? await Task.sleep(for: node.leaseRenewal) }   // cancelled: woken early
            let woken = state.withLock { state in
                defer { state.woken = false }
                if !state.woken { state.pause = pause }
                return state.woken
            }
            if woken { pause.cancel() }
            await withTaskCancellationHandler { await pause.value } onCancel: { pause.cancel() }
            state.withLock { $0.pause = nil }
        }
    }

    /// Cuts the loop's wait short, or has its next one end at once.
    private static func wake(_ state: inout State) {
        if let pause = state.pause { pause.cancel() } else { state.woken = true }
    }

    /// Gives up the leases released since the last round, then renews,
    /// takes and reads those of every watched store, and tells the watchers
    /// of each store whose writer changed.
    private func round() async {
        let (stores, released) = state.withLock { state in
            defer { state.released = [] }
            return (Set(state.watchers.keys), state.released)
        }
        let started = ContinuousClock.now
        do {
            if !released.isEmpty { try await release(released) }
            let leases = stores.isEmpty ? [:] : try await renewAndRead(stores.sorted())
            settle(stores, leases: leases, renewedAt: started)
            state.withLock { $0.failing = false }
        } catch {
            let first = state.withLock { state in
                defer { state.failing = true }
                return !state.failing
            }
            if first { logger.warning("store leases could not be renewed", metadata: ["error": "\(PostgresFailure.message(error))"]) }
            settle(stores, leases: nil, renewedAt: started)
        }
    }

    /// Records each store's writer after a round: from `leases` when the
    /// round read them, else each lease this node held stays its own until
    /// its bound passes (then the writer is unknown).
    private func settle(_ stores: Set<String>, leases: [String: Lease]?, renewedAt started: ContinuousClock.Instant) {
        let now = ContinuousClock.now
        let changes = state.withLock { state -> [(store: String, writer: StoreWriter, watchers: [@Sendable (StoreWriter) -> Void])] in
            var changes: [(store: String, writer: StoreWriter, watchers: [@Sendable (StoreWriter) -> Void])] = []
            for store in stores {
                guard let watchers = state.watchers[store] else { continue }   // closed during the round
                let writer: StoreWriter
                if let leases {
                    writer = leases[store].map { $0.node == node.id ? .this : .other(node: $0.node, address: $0.address) } ?? .unknown
                    if writer == .this { state.heldUntil[store] = started + node.leaseDuration } else { state.heldUntil[store] = nil }
                } else if let until = state.heldUntil[store], until > now {
                    writer = .this
                } else {
                    state.heldUntil[store] = nil
                    writer = state.writers[store] == .this ? .unknown : state.writers[store] ?? .unknown
                }
                guard state.writers[store] != writer else { continue }
                state.writers[store] = writer
                changes.append((store, writer, Array(watchers.values)))
            }
            return changes
        }
        for (store, writer, watchers) in changes {
            logger.log(level: writer == .this ? .notice : .info, "store writer changed", metadata: [
                "store": "\(store)", "writer": "\(writer)"])
            for change in watchers { change(writer) }
        }
    }

    /// Renews this node's leases of `stores`, takes those free or expired,
    /// and returns every lease of `stores` that exists.
    private func renewAndRead(_ stores: [String]) async throws -> [String: Lease] {
        let address = address.withLock { $0 }
        let rows = try await connection.run("""
            WITH taken AS (
                INSERT INTO statesync_leases AS l (store_id, node_id, address, term, expires_at)
                SELECT s.store_id, \(node.id), \(address), 1, now() + make_interval(secs => \(node.leaseDuration.inSeconds))
                  FROM statesync_stores s WHERE s.store_id = ANY(\(stores))
                ON CONFLICT (store_id) DO UPDATE
                  SET node_id = excluded.node_id, address = excluded.address, expires_at = excluded.expires_at,
                      term = l.term + CASE WHEN l.node_id = excluded.node_id THEN 0 ELSE 1 END
                  WHERE l.node_id = excluded.node_id OR l.expires_at < now()
                RETURNING store_id, node_id, address
            )
            SELECT store_id, node_id, address FROM taken
            UNION ALL
            SELECT store_id, node_id, address FROM statesync_leases
             WHERE store_id = ANY(\(stores)) AND store_id NOT IN (SELECT store_id FROM taken)
            """, logger: logger)
        var leases: [String: Lease] = [:]
        for (store, holder, address) in try rows.decode((String, String, String?).self) {
            leases[store] = Lease(node: holder, address: address)
        }
        return leases
    }

    /// Gives up this node's leases of `stores`: each expires now, keeping
    /// its term, so the next holder's is one more.
    private func release(_ stores: Set<String>) async throws {
        try await connection.run("""
            UPDATE statesync_leases SET expires_at = now() - interval '1 millisecond'
             WHERE store_id = ANY(\(stores.sorted())) AND node_id = \(node.id)
            """, logger: logger)
    }
}
