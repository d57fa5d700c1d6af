import CoreMetrics
import Logging
import NIOCore
import StateSyncCore
import StateSyncJournal
import StateSyncProtocol
import Synchronization
import WebSocket

/// The stores of one server by name, each a ``SyncEngine`` on its own journal,
/// opened on first use and closed when idle; `main` stays open. Opening and
/// closing run in ``run()``'s task group, never on a caller's event loop.
final class StoreDirectory<App: StateSyncApp>: Sendable {
    /// What an acquisition yields: the store's engine, or why not.
    typealias Completion = @Sendable (Result<SyncEngine<App>, ProtocolError>) -> Void

    enum Phase {
        case opening([Completion])
        case open(SyncEngine<App>)
        case closing(SyncEngine<App>, reopenFor: [Completion])
        /// Being deleted: refused until its storage is removed.
        case deleting
    }

    struct Entry {
        var phase: Phase
        /// Sessions in the store, and those waiting to be.
        var users: Int
        /// When the last user left (`nil` while it has users).
        var idleSince: ContinuousClock.Instant?
    }

    enum Job {
        case open(StoreName)
        case close(StoreName, SyncEngine<App>)
    }

    /// What an acquisition decided under the lock.
    enum Decision {
        case ready(SyncEngine<App>)
        case waiting
        case open
        case refused(ProtocolError)
    }

    struct State {
        var entries: [StoreName: Entry] = [:]
        /// Stores held in all, open or not (``StoreDirectoryConfiguration/maxStores``).
        var stored: Int
        var stopped = false
    }

    let configuration: StoreDirectoryConfiguration
    let storage: StoreStorage
    let footprint: StoreFootprint
    let makeEngine: @Sendable (StoreName, any Journal) async throws -> SyncEngine<App>
    let logger: Logger
    let metrics: ServerMetrics
    let gauges: StoreGauges
    let state: Mutex<State>
    /// Stores created per client address.
    private let creations: AddressRateLimiter
    private let jobs: AsyncStream<Job>
    private let jobQueue: AsyncStream<Job>.Continuation

    /// A directory opening journals from `storage` and engines with `makeEngine`.
    init(
        configuration: StoreDirectoryConfiguration, storage: StoreStorage, footprint: StoreFootprint, metrics: ServerMetrics,
        logger: Logger, makeEngine: @escaping @Sendable (StoreName, any Journal) async throws -> SyncEngine<App>
    ) {
        self.configuration = configuration
        self.metrics = metrics
        gauges = StoreGauges(limit: configuration.metricsTopStores, factory: metrics.factory)
        self.storage = storage
        self.footprint = footprint
        self.logger = logger
        self.makeEngine = makeEngine
        state = Mutex(State(stored: storage.storedCount()))
        creations = AddressRateLimiter(
            ratePerSecond: configuration.creationsPerSecondPerAddress, burst: configuration.creationBurstPerAddress,
            capacity: 10_000)
        (jobs, jobQueue) = AsyncStream.makeStream(of: Job.self)
    }

    /// Opens `main` (recovering it from its journal) and keeps it open until
    /// ``shutdown()``.
    func openMain() async throws -> (engine: SyncEngine<App>, journal: any Journal) {
        let journal = try await storage.open(.main, logger: logger)
        let engine = try await makeEngine(.main, journal)
        state.withLock { $0.entries[.main] = Entry(phase: .open(engine), users: 1) }
        opened()
        return (engine, journal)
    }

    /// Takes a place in `store` for a session of `role`, opening it if needed;
    /// `completion` gets its engine or the error for request `id`. Each success
    /// must be matched by one ``release(_:)``.
    func acquire(_ store: StoreName, role: Role, id: String?, from address: ClientAddressKey?, completion: @escaping Completion) {
        let decision: Decision = state.withLock { state in
            guard !state.stopped else { return .refused(.storeUnavailable(store, reason: "the server is shutting down", id: id)) }
            if var entry = state.entries[store] {
                if case .deleting = entry.phase {
                    return .refused(.storeUnavailable(store, reason: "it is being deleted", id: id))
                }
                // A closing store comes back only within the bound, as a new one would.
                if case .closing = entry.phase, !hasRoom(for: store, in: &state) {
                    return .refused(tooManyOpen(id: id))
                }
                entry.users += 1
                entry.idleSince = nil
                let decision: Decision
                switch entry.phase {
                case .open(let engine):
                    decision = .ready(engine)
                case .opening(let waiting):
                    entry.phase = .opening(waiting + [completion])
                    decision = .waiting
                case let .closing(engine, waiting):
                    entry.phase = .closing(engine, reopenFor: waiting + [completion])
                    decision = .waiting
                case .deleting:
                    decision = .waiting   // refused above
                }
                state.entries[store] = entry
                return decision
            }
            let creating = !storage.exists(store)
            if creating, let refusal = creationRefusal(of: store, role: role, id: id, from: address, stored: state.stored) {
                return .refused(refusal)
            }
            guard hasRoom(for: store, in: &state) else { return .refused(tooManyOpen(id: id)) }
            if creating { state.stored += 1 }
            state.entries[store] = Entry(phase: .opening([completion]), users: 1)
            return .open
        }
        switch decision {
        case .ready(let engine): completion(.success(engine))
        case .waiting: break
        case .open: jobQueue.yield(.open(store))
        case .refused(let error): completion(.failure(error))
        }
    }

    /// Takes a place in `store` as ``acquire(_:role:id:completion:)`` does,
    /// awaiting the engine; throws `forbidden`, `limit_reached` or `unavailable`.
    func acquire(_ store: StoreName, role: Role, from address: ClientAddressKey?) async throws(ProtocolError) -> SyncEngine<App> {
        let result = await withCheckedContinuation { continuation in
            acquire(store, role: role, id: nil, from: address) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Gives back a place taken with ``acquire(_:role:id:completion:)``;
    /// the store closes after ``StoreDirectoryConfiguration/idleTimeout``
    /// once none is left.
    func release(_ store: StoreName) {
        state.withLock { state in
            guard var entry = state.entries[store] else { return }
            entry.users -= 1
            if entry.users == 0 { entry.idleSince = .now }
            state.entries[store] = entry
        }
    }

    /// The stores held, open or not, in name order after `after`, at most
    /// `limit` of them.
    func summaries(after: StoreName?, limit: Int) async -> [StoreSummary] {
        let stored = await storage.storedNames(after: after, limit: limit)
        typealias Listed = (name: StoreName, engine: SyncEngine<App>?, users: Int)
        let listed: [Listed] = state.withLock { state in
            // `stored` is a page after `after` already; the stores held here may come before it.
            let held = state.entries.keys.filter { name in after.map { name > $0 } ?? true }
            let names = Set(stored).union(held).sorted().prefix(limit)
            return names.map { name -> Listed in
                let entry = state.entries[name]
                if case .open(let engine) = entry?.phase { return (name, engine, entry?.users ?? 0) }
                return (name, nil, entry?.users ?? 0)
            }
        }
        // Files are measured outside the lock, the page's rows in one read on a reader connection.
        let bytes = await footprint.bytes(of: listed.map { ($0.name, $0.engine?.estimatedStateBytes) })
        return zip(listed, bytes).map { listed, bytes in
            let (name, engine, users) = listed
            return StoreSummary(
                name: name, open: engine != nil, revision: engine?.revision, sessions: sessions(in: name, engine: engine, users: users),
                bytes: bytes)
        }
    }

    /// The sessions in `name`: its users, except in `main`, which sessions
    /// join at `hello` without a place here: its engine counts them.
    private func sessions(in name: StoreName, engine: SyncEngine<App>?, users: Int) -> Int {
        name.isMain ? engine?.sessionCount ?? 0 : users
    }

    /// Whether the server holds `store` (open or not, and not being deleted).
    func holds(_ store: StoreName) -> Bool {
        let entry: Bool? = state.withLock { state in
            guard let entry = state.entries[store] else { return nil }
            if case .deleting = entry.phase { return false }
            return true
        }
        return entry ?? storage.exists(store)
    }

    /// Deletes `store`: closes it when it is open and idle, then removes
    /// what it stored. Refused for `main`, for a store with sessions, and
    /// while it opens or closes.
    func delete(_ store: StoreName) async throws(StoreDeletionError) {
        let engine: SyncEngine<App>? = try state.withLock { state throws(StoreDeletionError) in
            guard !store.isMain else { throw .mainStays }
            guard let entry = state.entries[store] else {
                guard storage.exists(store) else { throw .notFound(store) }
                state.entries[store] = Entry(phase: .deleting, users: 0)
                return nil
            }
            guard entry.users == 0, case .open(let engine) = entry.phase else { throw .inUse(store, sessions: entry.users) }
            state.entries[store]?.phase = .deleting
            return engine
        }
        if let engine { await shutDown(engine) }
        defer { state.withLock { _ = $0.entries.removeValue(forKey: store) } }
        do {
            try await storage.remove(store)
        } catch {
            throw .storage(store, "\(error)")
        }
        state.withLock { $0.stored -= 1 }
        logger.notice("store deleted", metadata: ["store": "\(store)"])
    }

    /// Opens and closes stores as asked, and closes idle ones, until
    /// ``shutdown()``.
    func run() async {
        await withDiscardingTaskGroup { group in
            if storage.closesIdleStores {
                group.addTask { [self] in
                    let interval = max(.milliseconds(10), configuration.idleTimeout / 4)
                    // Ends when shutdown cancels the group.
                    while (try? await Task.sleep(for: interval)) != nil {
                        closeIdleStores()
                    }
                }
            }
            if gauges.limit > 0 {
                group.addTask { [self] in
                    // Ends when shutdown cancels the group.
                    while (try? await Task.sleep(for: StoreGauges.refreshInterval)) != nil {
                        refreshGauges()
                    }
                }
            }
            for await job in jobs {
                group.addTask { [self] in await perform(job) }
            }
            group.cancelAll()
        }
    }

    /// Refuses new acquisitions, lets opening and closing finish, and shuts
    /// every open store down (each saves a final snapshot and closes its
    /// journal). Call once; ``run()`` returns after it.
    func shutdown() async {
        let engines: [SyncEngine<App>] = state.withLock { state in
            state.stopped = true
            return state.entries.values.compactMap { entry in
                if case .open(let engine) = entry.phase { return engine }
                return nil
            }
        }
        jobQueue.finish()
        for engine in engines { await shutDown(engine) }
        gauges.removeAll()
    }

    /// Sets the per-store gauges (``StoreGauges``) from the open stores now.
    func refreshGauges() {
        let figures: [StoreGauges.Figures] = state.withLock { state in
            state.entries.compactMap { name, entry in
                guard case .open(let engine) = entry.phase else { return nil }
                return StoreGauges.Figures(
                    store: name, sessions: sessions(in: name, engine: engine, users: entry.users), revision: engine.revision)
            }
        }
        gauges.update(figures)
    }

    func opened() {
        metrics.storesOpen.increment()
        metrics.storesOpened.increment()
    }

    /// Shuts `engine` down: its final snapshot, its journal closed.
    func shutDown(_ engine: SyncEngine<App>) async {
        await engine.shutdown()
        metrics.storesOpen.decrement()
        metrics.storesClosed.increment()
    }

    private func closeIdleStores() {
        let now = ContinuousClock.now
        let closing: [(StoreName, SyncEngine<App>)] = state.withLock { state in
            var closing: [(StoreName, SyncEngine<App>)] = []
            for (store, entry) in state.entries where entry.users == 0 {
                guard case .open(let engine) = entry.phase, let idleSince = entry.idleSince,
                      now - idleSince >= configuration.idleTimeout
                else { continue }
                state.entries[store]?.phase = .closing(engine, reopenFor: [])
                closing.append((store, engine))
            }
            return closing
        }
        for (store, engine) in closing { jobQueue.yield(.close(store, engine)) }
    }

    /// Whether `store` may be open beside the others, after closing the
    /// store idle the longest when the bound is reached.
    private func hasRoom(for store: StoreName, in state: inout State) -> Bool {
        let others = state.entries.count - (state.entries[store] == nil ? 0 : 1)
        return others < configuration.maxResidentStores || closeLeastRecentlyUsed(in: &state)
    }

    /// Why `role` at `address` may not create `store` now, or `nil`.
    private func creationRefusal(
        of store: StoreName, role: Role, id: String?, from address: ClientAddressKey?, stored: Int
    ) -> ProtocolError? {
        guard role >= configuration.createRole else { return .storeNotCreatable(store, role: role, id: id) }
        guard stored < configuration.maxStores else {
            return .storeLimit("too many stores: at most \(configuration.maxStores); delete some first", id: id)
        }
        if let address, !creations.admit(address, now: .now) {
            return .storeLimit(
                "too many stores created from \(address): at most \(configuration.creationsPerSecondPerAddress) per second", id: id)
        }
        return nil
    }

    private func tooManyOpen(id: String?) -> ProtocolError {
        .storeLimit("too many open stores: at most \(configuration.maxResidentStores), and every one has sessions", id: id)
    }

    /// Starts closing the open store idle the longest; `false` when every
    /// open store has sessions. Its entry stays until it is closed, so the
    /// new store is admitted one over the bound for that time.
    private func closeLeastRecentlyUsed(in state: inout State) -> Bool {
        guard storage.closesIdleStores else { return false }
        let idle = state.entries.compactMap { store, entry -> (StoreName, SyncEngine<App>, ContinuousClock.Instant)? in
            guard entry.users == 0, case .open(let engine) = entry.phase, let since = entry.idleSince else { return nil }
            return (store, engine, since)
        }
        guard let (store, engine, _) = idle.min(by: { $0.2 < $1.2 }) else { return false }
        state.entries[store]?.phase = .closing(engine, reopenFor: [])
        jobQueue.yield(.close(store, engine))
        return true
    }
}
