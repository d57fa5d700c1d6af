public import StateSyncCore
import StateSyncProtocol
import WebSocket

/// A client of a StateSync server: keeps a local mirror of the parts of the state it subscribes to,
/// and dispatches actions.
///
/// ```swift
/// try await StateSyncClient.withConnection(StateSyncClientConfiguration(url: "ws://127.0.0.1:8080/sync")) { client in
///     // Several components observe slices of one server subscription of /todos.
///     try await client.subscribe("/todos")
///     let titles = try await client.observe("/todos/0/title")           // no extra server traffic
///     let todos = try await client.observe("/todos", as: [Todo].self)   // typed
///     let rev = try await client.dispatch(["type": "addTodo", "title": "Milk"])
///     for try await todos in todos { print(todos) }
/// }
/// ```
///
/// Each ``subscribe(_:)`` is one server subscription whose snapshot and patches update a local JSON document;
/// a patch whose `base` is not the revision held, or that does not apply, makes it re-subscribe with `since`.
/// ``observe(_:)`` reads any path inside a subscription from that document, without server traffic.
/// ``mirror(_:optimistic:)`` shows this client's dispatches at once (``OptimisticMirror``), and
/// ``store(_:)-(StoreName)`` gives the same API for another store over the same connection (``ClientStore``).
/// ``run()`` owns the connection: after a drop it reconnects with backoff (``ReconnectPolicy``), re-subscribes
/// in each store and re-sends every unacknowledged dispatch with its original id, so each action applies
/// exactly once.
public actor StateSyncClient {
    /// The configuration the client was made with.
    public nonisolated let configuration: StateSyncClientConfiguration

    /// The client id sent in `hello`: the configuration's, or the one of the
    /// outbox file when it has one (its dispatches were made under it).
    public nonisolated let clientID: String

    /// The mirror of ``StoreName/main`` (its ``StoreState/mirror``), readable without the actor.
    nonisolated let mirror = LocalStore<JSONValue>(initialState: .object([:]))
    /// The connection state, session and revision, observable.
    nonisolated let statusStore = LocalStore<ClientStatus>(initialState: ClientStatus())

    /// The state of each store the client has used, `main` always among them.
    var stores: [StoreName: StoreState]
    /// Callers of ``waitUntilOnline()``.
    var onlineWaiters: [CheckedContinuation<Void, any Error>] = []
    /// The open connection while online.
    var connection: WebSocketConnection?
    /// The connection being opened, until its welcome (``close()`` closes it too).
    var opening: WebSocketConnection?
    var isClosed = false
    /// Wakes the reconnect delay in progress when ``close()`` is called.
    var pauseWaker: AsyncStream<Void>.Continuation?
    /// The error that ended ``run()`` for good, for ``waitUntilOnline()``.
    var failure: (any Error)?
    var nextWireID = 0
    /// The token `hello` sends: ``StateSyncClientConfiguration/token`` until ``refreshToken(_:)`` replaces it.
    var token: String?
    /// Callers of ``refreshToken(_:)`` waiting for the server's answer, by `auth` id.
    var tokenWaiters: [String: CheckedContinuation<Void, any Error>] = [:]
    /// A random prefix that makes action ids unique across this client's
    /// lives, even with a persisted ``StateSyncClientConfiguration/clientID``.
    let actionIDPrefix = StateSyncClientConfiguration.randomID(prefix: "")
    /// The outbox file, when ``StateSyncClientConfiguration/outbox`` is one.
    let outboxFile: OutboxFile?
    /// Why the outbox file could not be read: ``run()`` throws it.
    let outboxFailure: StateSyncClientError?

    /// A client for `configuration`; nothing happens until ``run()``. An outbox file's dispatches are pending
    /// from the start; a file that cannot be read makes ``run()`` throw.
    public init(configuration: StateSyncClientConfiguration) {
        self.configuration = configuration
        var clientID = configuration.clientID
        var failure: StateSyncClientError?
        let main = StoreState(name: .main, mirror: mirror)
        var stores = [StoreName.main: main]
        if case .file(let url) = configuration.outbox {
            let file = OutboxFile(url: url)
            outboxFile = file
            do throws(StateSyncClientError) {
                if let contents = try file.load() {
                    clientID = contents.clientID
                    for entry in contents.dispatches {
                        let store = stores[entry.store] ?? StoreState(name: entry.store)
                        stores[entry.store] = store
                        store.pending.add(dispatch: entry.id, action: entry.action, schemaVersion: entry.schemaVersion, continuation: nil)
                        store.everSent.insert(entry.id)
                    }
                }
            } catch {
                failure = error
            }
        } else {
            outboxFile = nil
        }
        self.clientID = clientID
        self.token = configuration.token
        self.stores = stores
        outboxFailure = failure
    }

    /// The connection state, session, epoch, role and newest revision.
    public nonisolated var status: ClientStatus { statusStore.state }

    /// One part of ``status`` now and after every change, as an `AsyncSequence`
    /// of distinct values (the store's ``StateObservation``).
    ///
    /// ```swift
    /// for await state in client.observeStatus(\.connection) { print(state) }   // connecting, online, …
    /// ```
    public nonisolated func observeStatus<Value: Equatable & Sendable>(
        _ path: any KeyPath<ClientStatus, Value> & Sendable
    ) -> StateObservation<Value> {
        statusStore.observe(path)
    }

    /// Runs a client around `body`, then closes it and returns `body`'s result. Throws
    /// ``StateSyncClientError/cannotConnect(url:reason:)`` when the first attempt fails (unless
    /// ``StateSyncClientConfiguration/waitsForServer``); when the client ends for good, `body` is cancelled and
    /// that error is thrown.
    public static func withConnection<T: Sendable>(
        _ configuration: StateSyncClientConfiguration,
        _ body: @escaping @Sendable (StateSyncClient) async throws -> T
    ) async throws -> T {
        let client = StateSyncClient(configuration: configuration)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await client.run()
                return nil
            }
            group.addTask {
                try await client.waitUntilOnline()
                return try await body(client)
            }
            do {
                // The body's result, or run()'s end: a refusal on a reconnect
                // throws here and cancels the body, which would otherwise wait
                // for a mirror that no longer changes.
                while let finished = try await group.next() {
                    guard let result = finished else { continue }
                    await client.close()
                    try await group.waitForAll()
                    return result
                }
                throw StateSyncClientError.closed
            } catch {
                group.cancelAll()
                await client.close()
                throw error
            }
        }
    }

    /// Closes the connection (1000) and stops ``run()``. Requests still
    /// waiting fail with ``StateSyncClientError/closed``; an unacknowledged
    /// dispatch may or may not have been applied. Idempotent.
    public func close() async {
        guard !isClosed else { return }
        isClosed = true
        setConnection(.closed)
        failWaiters(with: StateSyncClientError.closed)
        pauseWaker?.yield()
        if let connection = connection ?? opening {
            try? await connection.outbound.close(code: .normalClosure, reason: "client closed")   // already closing or closed: nothing to do
        }
    }

    /// Waits until the client is online; throws the error that ended
    /// ``run()`` if it ends first, or ``StateSyncClientError/closed``.
    public func waitUntilOnline() async throws {
        if let failure { throw failure }
        if isClosed { throw StateSyncClientError.closed }
        if case .online = status.connection { return }
        try await withCheckedThrowingContinuation { onlineWaiters.append($0) }
    }

    /// A new id for a message on the wire: `prefix` and a counter.
    func makeWireID(_ prefix: String) -> String {
        nextWireID += 1
        return "\(prefix)\(nextWireID)"
    }

    /// Sets the connection state in ``status``.
    nonisolated func setConnection(_ state: ConnectionState) {
        statusStore.performStateUpdate { $0.connection = state }
    }

    /// Raises `store`'s revision to `rev` when it is newer (and
    /// ``ClientStatus/rev`` for `main`).
    func heard(rev: UInt64, in store: StoreState) {
        store.heard(rev: rev)
        guard store.name.isMain, rev > status.rev else { return }
        statusStore.performStateUpdate { $0.rev = max($0.rev, rev) }
    }

    /// Fails every waiting caller, in every store, with `error`.
    func failWaiters(with error: any Error) {
        for store in stores.values { store.end(with: error) }
        let waiters = onlineWaiters
        onlineWaiters = []
        for waiter in waiters { waiter.resume(throwing: error) }
        failTokenWaiters(with: error)
    }

    /// The state of `name`, made on first use.
    func state(_ name: StoreName) -> StoreState {
        if let store = stores[name] { return store }
        let store = StoreState(name: name)
        stores[name] = store
        return store
    }

    /// `main`'s state.
    var main: StoreState { state(.main) }

    /// `main`'s subscriptions (tests read them).
    var subscriptions: MirrorSubscriptions { main.subscriptions }

    /// `main`'s waiting requests (tests read them).
    var pending: PendingRequests { main.pending }
}
