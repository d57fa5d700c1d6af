/// What an ``OptimisticMirror`` shows at one moment: the prediction, the confirmed state it was made from and
/// how many local actions await the server, so a view can mark what is not confirmed yet.
///
/// ```swift
/// for await todos in board.observeView(\.pendingTodoIDs) { … }   // an app's own computed property
/// ```
public struct OptimisticView<State: Equatable & Sendable>: Equatable, Sendable {
    /// The confirmed state with the pending actions applied.
    public var predicted: State
    /// The server's state as its patches last said.
    public var confirmed: State
    /// The number of local actions not answered yet.
    public var pendingCount: Int

    /// A view of `predicted` made from `confirmed` and `pendingCount` actions.
    public init(predicted: State, confirmed: State, pendingCount: Int) {
        self.predicted = predicted
        self.confirmed = confirmed
        self.pendingCount = pendingCount
    }
}
