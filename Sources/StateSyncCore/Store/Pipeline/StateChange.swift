/// One accepted action and what it did: the state before and after, and its
/// metadata, as ``Middleware/didReduce(_:)`` receives it (the ``Recorder`` and
/// the ``TestStore`` build on it).
public struct StateChange<State: Sendable, Action: Sendable>: Sendable {
    /// The state before the action.
    public var old: State
    /// The state after the action.
    public var new: State
    /// The accepted action.
    public var action: Action
    /// The metadata fixed at acceptance (its revision is the new state's revision).
    public var meta: Meta

    /// A change record.
    public init(old: State, new: State, action: Action, meta: Meta) {
        self.old = old
        self.new = new
        self.action = action
        self.meta = meta
    }
}
