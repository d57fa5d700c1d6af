public import StateSyncCore

/// A typed mirror of the whole state that shows this client's own actions at once: the server's confirmed
/// state with the unanswered actions applied on top by the app's reducer, rebased on every server patch.
///
/// ```swift
/// let board = try await client.mirror(Board.self, optimistic: true)
/// for await todos in board.observe(\.todos) { render(todos) }     // Milk shows at once…
/// try await board.dispatch(.addTodo(title: "Milk"))               // …and this returns after the ack
/// ```
///
/// Every dispatch of the client to its store is predicted; an ack removes it, a reject rolls it back.
/// Observers see each change (a patch with its rebase, an answer, a dispatch) as one step; a patch arriving
/// while actions are in flight is shown with the answer that follows it, or after 50 ms, so an acked action
/// is never shown twice. A re-sent action is left out of the prediction until its answer. The predicted
/// ``Meta`` may differ from the server's. It subscribes to the whole state (`""`), since the reducer may read
/// any part; a role that may not read everything gets `forbidden`. (docs/client.md, "Optimistic updates")
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
