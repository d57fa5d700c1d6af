public import StateSyncCore
import Foundation
import StateSyncProtocol
import Synchronization

/// A typed mirror of the whole state that shows this client's own actions at
/// once: it keeps the server's confirmed state and the actions not answered
/// yet, applies them with the app's own reducer on top (the prediction), and
/// rebases them whenever the server's patches move the confirmed state.
///
/// ```swift
/// let board = try await client.mirror(Board.self, optimistic: true)
/// for await todos in board.observe(\.todos) { render(todos) }     // Milk shows at once…
/// try await board.dispatch(.addTodo(title: "Milk"))               // …and this returns after the ack
/// ```
///
/// Every dispatch of the client to its store (``dispatch(_:)``, or the
/// client's own ``StateSyncClient/dispatch(_:)-(JSONObject)`` for `main`,
/// ``ClientStore/dispatch(_:)-(JSONObject)`` for another) is predicted: observers
/// see it before the server answers. An ack removes it from the pending
/// actions (its effect is then in the confirmed state); a reject removes it
/// and the prediction rolls back. Observers see distinct values, and each
/// change of the client (a patch with its rebase, an answer, a dispatch) as
/// one step: never a state between two reductions of one rebase. A patch
/// that comes while this client's actions are in flight is shown together
/// with the answer that follows it (the server sends an action's patches
/// right before its ack), or after 50 ms if no answer follows, so an acked
/// action is never shown twice.
///
/// ## What a prediction may get wrong
/// The client predicts the ``Meta`` the server will fix: the revision (the
/// confirmed one plus the action's place in the queue), the time (when it
/// was dispatched here) and the session (this connection's). When other
/// clients' actions come first, or the clocks differ, the server's patch
/// corrects it: the board's `addTodo` names a todo `t<rev>`, so the id shown
/// while pending may change once it is confirmed. Reducers predict best when
/// what they generate comes from the action (a client-generated id such as
/// a UUID in the action) rather than from ``Meta``.
///
/// An action sent before a connection dropped (or by an earlier process,
/// from the outbox) may have been applied without its ack arriving. Once
/// it is sent again it is left out of the prediction until its answer, so it
/// is never shown twice; if the server had not applied it, it shows again
/// with the patch that applies it, one round trip later.
///
/// ## Only the whole state
/// The mirror subscribes to the whole state (`""`): the reducer reads the
/// state it is given, and a prediction made from part of it could read
/// what the client does not hold. So there is no optimistic mirror of a
/// path, and a server that forbids this role to read everything
/// (`--restrict-read`) refuses it with `forbidden`.
public final class OptimisticMirror<App: StateSyncApp>: Sendable {
    private let client: StateSyncClient
    private let store: StoreName
    private let predicts: Bool
    private let queue: Mutex<OptimisticQueue<App>>
    private let predictedStore: LocalStore<App.State>
    private let viewStore: LocalStore<OptimisticView<App.State>>
    private let lastError = Mutex<StateSyncClientError?>(nil)

    /// A mirror of `document` at `rev` of `store` on `client`, predicting `restored`
    /// (actions pending from before it was made, e.g. from the outbox)
    /// except those in `doubtful` (re-sent, maybe applied already).
    init(
        client: StateSyncClient, store: StoreName, predicts: Bool, document: JSONValue, rev: UInt64,
        restored: [(id: String, action: JSONObject)], doubtful: Set<String>
    ) throws(StateSyncClientError) {
        self.client = client
        self.store = store
        self.predicts = predicts
        let state = try decode(document, as: App.State.self, path: "")
        var queue = OptimisticQueue<App>(confirmed: state, rev: rev, session: Self.session(of: client), clientID: client.clientID)
        if predicts {
            for (id, wire) in restored {
                if let action = try? App.Action(wireValue: wire) {   // one the app cannot read: the server answers it, unpredicted
                    queue.enqueue(id: id, action: action, at: Date())
                }
            }
            queue.doubt(ids: doubtful)
        }
        self.queue = Mutex(queue)
        predictedStore = LocalStore(initialState: queue.predicted)
        viewStore = LocalStore(initialState: Self.view(of: queue))
    }

    /// The predicted state now.
    public var state: App.State { predictedStore.state }

    /// The prediction, the confirmed state and the number of pending actions now.
    public var view: OptimisticView<App.State> { viewStore.state }

    /// The decoding failure of the latest confirmed document, if it did not
    /// decode as `App.State` (the confirmed state then stays the last that did).
    public var decodingError: StateSyncClientError? { lastError.withLock { $0 } }

    /// Dispatches `action`: it shows at once, and this returns the revision
    /// the server applied it at, or throws its ``DispatchRejection`` (the
    /// prediction has rolled back by then).
    @discardableResult
    public func dispatch(_ action: App.Action) async throws -> UInt64 {
        try await client.dispatch(action.wireValue, to: store)
    }

    /// The predicted value at `path` now and after every change, as an
    /// `AsyncSequence` of distinct values (``Store/observe(_:)-(KeyPath)``).
    public func observe<Value: Equatable & Sendable>(_ path: any KeyPath<App.State, Value> & Sendable) -> StateObservation<Value> {
        predictedStore.observe(path)
    }

    /// Calls `receive` with the predicted value at `path` now and after every
    /// change; the subscription lasts while the token does.
    public func subscribe<Value: Equatable & Sendable>(
        _ path: any KeyPath<App.State, Value> & Sendable, _ receive: @escaping @Sendable (Value) -> Void
    ) -> ObservationToken {
        predictedStore.subscribe(path, receive)
    }

    /// A value of the whole ``OptimisticView`` (prediction, confirmed state,
    /// pending count) now and after every change, for views that mark what
    /// is not confirmed yet.
    public func observeView<Value: Equatable & Sendable>(
        _ path: any KeyPath<OptimisticView<App.State>, Value> & Sendable
    ) -> StateObservation<Value> {
        viewStore.observe(path)
    }

    private static func view(of queue: OptimisticQueue<App>) -> OptimisticView<App.State> {
        OptimisticView(predicted: queue.predicted, confirmed: queue.confirmed, pendingCount: queue.pending.count)
    }

    /// The session actions are predicted as: this connection's id, and the
    /// name the server gives it (the configured one, else the session id).
    private static func session(of client: StateSyncClient) -> SessionInfo {
        let id = client.status.session ?? ""
        let name = client.configuration.name.flatMap { $0.isEmpty ? nil : $0 } ?? id
        return SessionInfo(id: id, name: name)
    }
}

extension OptimisticMirror: OptimisticSink {
    func enqueue(id: String, action: JSONObject) {
        guard predicts, let typed = try? App.Action(wireValue: action) else { return }   // unreadable: the server rejects it; nothing to predict
        let session = Self.session(of: client)
        queue.withLock { queue in
            queue.session = session
            queue.enqueue(id: id, action: typed, at: Date())
        }
        publish()
    }

    func confirm(document: JSONValue, rev: UInt64) {
        do throws(StateSyncClientError) {
            let state = try decode(document, as: App.State.self, path: "")
            lastError.withLock { $0 = nil }
            let session = Self.session(of: client)
            queue.withLock { queue in
                queue.session = session
                queue.confirm(state, rev: rev)
            }
        } catch {
            lastError.withLock { $0 = error }
        }
    }

    func doubt(ids: Set<String>) {
        queue.withLock { $0.doubt(ids: ids) }
    }

    func settle(id: String) {
        queue.withLock { _ = $0.settle(id: id) }
    }

    func publish() {
        let view = queue.withLock { Self.view(of: $0) }
        let predicted = view.predicted
        predictedStore.performStateUpdate { $0 = predicted }
        viewStore.performStateUpdate { $0 = view }
    }
}
