public import StateSyncCore

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
///
/// ## Observation
/// ``observable`` is the same mirror for the Observation framework: a view
/// reading `observable.state.todos` is invalidated only by changes of
/// `todos`. The sequences and callbacks here each keep a copy of the
/// state, made on their first use, so the next patch copies what it
/// changes; with ``observable`` alone a patch costs what it changes.
public final class OptimisticMirror<App: StateSyncApp>: Sendable {
    /// This mirror for the Observation framework (SwiftUI), read per slice.
    public let observable: ObservableMirror<App>

    /// A mirror over `observable`.
    init(observable: ObservableMirror<App>) {
        self.observable = observable
    }

    /// The predicted state now.
    public var state: App.State { observable.view.predicted }

    /// The prediction, the confirmed state and the number of pending actions now.
    public var view: OptimisticView<App.State> { observable.view }

    /// The decoding failure of the latest confirmed document, if it did not
    /// decode as `App.State` (the slices that did not decode keep their last values).
    public var decodingError: StateSyncClientError? { observable.decodingError }

    /// Dispatches `action`: it shows at once, and this returns the revision
    /// the server applied it at, or throws its ``DispatchRejection`` (the
    /// prediction has rolled back by then).
    @discardableResult
    public func dispatch(_ action: App.Action) async throws -> UInt64 {
        try await observable.dispatch(action)
    }

    /// The predicted value at `path` now and after every change, as an
    /// `AsyncSequence` of distinct values (``Store/observe(_:)-(KeyPath)``).
    public func observe<Value: Equatable & Sendable>(_ path: any KeyPath<App.State, Value> & Sendable) -> StateObservation<Value> {
        observable.stores.predicted(state).observe(path)
    }

    /// Calls `receive` with the predicted value at `path` now and after every
    /// change; the subscription lasts while the token does.
    public func subscribe<Value: Equatable & Sendable>(
        _ path: any KeyPath<App.State, Value> & Sendable, _ receive: @escaping @Sendable (Value) -> Void
    ) -> ObservationToken {
        observable.stores.predicted(state).subscribe(path, receive)
    }

    /// A value of the whole ``OptimisticView`` (prediction, confirmed state,
    /// pending count) now and after every change, for views that mark what
    /// is not confirmed yet.
    public func observeView<Value: Equatable & Sendable>(
        _ path: any KeyPath<OptimisticView<App.State>, Value> & Sendable
    ) -> StateObservation<Value> {
        observable.stores.view(view).observe(path)
    }
}
