public import Observation
public import StateSyncCore
import StateSyncProtocol
import Synchronization

/// An optimistic mirror of an app's whole state for the Observation framework (SwiftUI's `@Observable` models):
/// a view that reads `mirror.state.todos` is invalidated when a patch touches `/todos`, never for `/counters`.
///
/// ```swift
/// let board = try await client.mirror(Board.self, optimistic: true).observable
///
/// struct TodoList: View {
///     let board: ObservableMirror<Board>
///     var body: some View {
///         List(board.state.todos) { todo in Text(todo.title) }   // redrawn for /todos only
///             .opacity(board.isPending ? 0.6 : 1)
///     }
/// }
/// ```
///
/// Reading a top-level member of a ``SlicedState`` registers the reader for that member only; each applied
/// batch invalidates each reader of a changed member once, and a patch decodes only what it touches. Any other
/// read is invalidated by every change. Observers are told after the change, on the client's actor.
/// Dispatches, predictions and outbox are those of the ``OptimisticMirror`` it comes from.
public final class ObservableMirror<App: StateSyncApp>: Observable, Sendable {
    private let client: StateSyncClient?
    private let store: StoreName
    private let model: Mutex<MirrorModel<App>>
    private let registrar = ObservationRegistrar()
    private let connectionState: Mutex<ConnectionState>
    private let rejection = Mutex<DispatchRejection?>(nil)
    private let statusToken = Mutex<ObservationToken?>(nil)
    /// The `LocalStore`s of ``OptimisticMirror``'s sequences, made on first use.
    let stores: PublishedStores<App>

    /// A mirror of `store` on `client` (none for a detached one: tests and
    /// benchmarks), over `queue`, decoding `App.State`'s slices.
    init(client: StateSyncClient?, store: StoreName, queue: OptimisticQueue<App>, predicts: Bool) {
        self.client = client
        self.store = store
        let model = MirrorModel(queue: queue, decoder: SliceDecoder(slices: Self.slices), predicts: predicts)
        self.model = Mutex(model)
        stores = PublishedStores()
        connectionState = Mutex(client?.status.connection ?? .online)
        let token = client?.statusStore.subscribe(\.connection) { [weak self] state in self?.connectionChanged(state) }
        statusToken.withLock { $0 = token }
    }

    /// A mirror with no client, at `document` of revision `rev`: what
    /// ``apply(document:rev:changes:)`` changes is observed as from a server.
    package convenience init(detached document: JSONValue, rev: UInt64, session: SessionInfo) throws {
        let state = try JSONValueDecoder().decode(App.State.self, from: document)
        self.init(client: nil, store: .main, queue: OptimisticQueue(confirmed: state, rev: rev, session: session), predicts: true)
    }

    /// The predicted state, read member by member: `state.todos` makes the
    /// reader depend on `todos` only.
    public var state: ObservedState<App> { ObservedState(mirror: self) }

    /// The number of this client's actions the server has not answered yet.
    public var pendingCount: Int {
        registrar.access(self, keyPath: \.pendingCount)
        return model.withLock { $0.shownPendingCount }
    }

    /// Whether any of this client's actions is still unanswered.
    public var isPending: Bool { pendingCount > 0 }

    /// The client's connection state.
    public var connection: ConnectionState {
        registrar.access(self, keyPath: \.connection)
        return connectionState.withLock { $0 }
    }

    /// The last of this client's actions the server rejected, if any.
    public var lastRejection: DispatchRejection? {
        registrar.access(self, keyPath: \.lastRejection)
        return rejection.withLock { $0 }
    }

    /// The decoding failure of the latest confirmed change, if it did not
    /// decode (the slices it could not decode keep their last values).
    public var decodingError: StateSyncClientError? { model.withLock { $0.decodingError } }

    /// Dispatches `action` (see ``OptimisticMirror/dispatch(_:)``).
    @discardableResult
    public func dispatch(_ action: App.Action) async throws -> UInt64 {
        guard let client else { throw StateSyncClientError.closed }
        return try await client.dispatch(action.wireValue, to: store)
    }

    /// The value at `keyPath` of the shown state, registering the reader
    /// for the slice that holds it.
    func read<Value>(_ keyPath: KeyPath<App.State, Value>) -> Value {
        let (state, slice) = model.withLock { ($0.shown, $0.decoder.index(of: keyPath)) }
        registrar.access(self, keyPath: \.[slice: slice ?? Self.wholeState])
        return state[keyPath: keyPath]
    }

    /// The whole shown state, as one read of every slice.
    var shownState: App.State {
        registrar.access(self, keyPath: \.[slice: Self.wholeState])
        return model.withLock { $0.shown }
    }

    /// The prediction, the confirmed state and the pending count now.
    var view: OptimisticView<App.State> { model.withLock { Self.view(of: $0) } }

    /// The key of the readers of the whole state (and of key paths no slice lists).
    private static var wholeState: Int { -1 }

    /// One key per slice (its index), for the registrar.
    private subscript(slice index: Int) -> Int { index }

    private static var slices: [StateSlice<App.State>] {
        guard let sliced = App.State.self as? any SlicedState.Type else { return [] }
        return slices(of: sliced) as? [StateSlice<App.State>] ?? []
    }

    private static func slices<State: SlicedState>(of type: State.Type) -> Any { State.slices }

    private static func view(of model: MirrorModel<App>) -> OptimisticView<App.State> {
        OptimisticView(predicted: model.shown, confirmed: model.queue.confirmed, pendingCount: model.shownPendingCount)
    }

    private func connectionChanged(_ state: ConnectionState) {
        guard connectionState.withLock({ $0 }) != state else { return }
        registrar.withMutation(of: self, keyPath: \.connection) { connectionState.withLock { $0 = state } }
    }

    /// Applies a change of the confirmed document and shows it at once
    /// (the client's sink path, without the wait for answers): for tests
    /// and benchmarks.
    package func apply(document: JSONValue, rev: UInt64, changes: [JSONPatchOperation]) {
        confirm(document: document, rev: rev, changes: changes)
        publish()
    }
}

extension ObservableMirror: OptimisticSink {
    func enqueue(id: String, action: JSONObject) {
        guard let typed = try? App.Action(wireValue: action) else { return }   // unreadable: the server rejects it; nothing to predict
        let session = session
        model.withLock { model in
            guard model.predicts else { return }
            model.enqueue(id: id, action: typed, session: session)
        }
        publish()
    }

    func confirm(document: JSONValue, rev: UInt64, changes: [JSONPatchOperation]) {
        let session = session
        model.withLock { $0.confirm(document: document, rev: rev, changes: changes, session: session) }
    }

    func doubt(ids: Set<String>) {
        model.withLock { $0.doubt(ids: ids) }
    }

    func settle(id: String) {
        model.withLock { $0.settle(id: id) }
    }

    func rejected(_ rejection: DispatchRejection) {
        registrar.withMutation(of: self, keyPath: \.lastRejection) { self.rejection.withLock { $0 = rejection } }
    }

    func publish() {
        let (changed, pendingCountChanged) = model.withLock { $0.publish() }
        switch changed {
        case .everything:
            for index in model.withLock({ $0.decoder.slices.indices }) { invalidate(slice: index) }
            invalidate(slice: Self.wholeState)
        case .slices(let indices):
            for index in indices { invalidate(slice: index) }
            if !indices.isEmpty { invalidate(slice: Self.wholeState) }
        }
        if pendingCountChanged {
            registrar.willSet(self, keyPath: \.pendingCount)
            registrar.didSet(self, keyPath: \.pendingCount)
        }
        if stores.inUse {
            let (state, view) = model.withLock { ($0.shown, Self.view(of: $0)) }
            stores.publish(state: state, view: view)
        }
    }

    private func invalidate(slice index: Int) {
        registrar.willSet(self, keyPath: \.[slice: index])
        registrar.didSet(self, keyPath: \.[slice: index])
    }

    /// The session actions are predicted as: this connection's id, and the
    /// name the server gives it (the configured one, else the session id).
    private var session: SessionInfo {
        client?.predictedSession ?? model.withLock { $0.queue.session }
    }
}
