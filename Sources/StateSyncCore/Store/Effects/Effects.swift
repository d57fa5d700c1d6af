/// An effect handler: answers an accepted action with an ``Effect`` (example
/// there). It runs after the reducer and the middleware (in a ``Store``, after
/// the observers too) on the thread that processed the action, so it must
/// return quickly: slow work goes inside the effect.
public struct Effects<State: Sendable, Action: Sendable>: Sendable {
    @usableFromInline let handler: @Sendable (Action, State, Meta) -> Effect<Action>

    /// A handler deciding the effect of each accepted action.
    public init(_ handler: @escaping @Sendable (_ action: Action, _ state: State, _ meta: Meta) -> Effect<Action>) {
        self.handler = handler
    }
}
