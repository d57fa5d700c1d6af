/// An effect handler: answers an accepted action with an ``Effect``.
///
/// The ``ActionPipeline`` asks it after the reducer and the middleware (in a
/// ``Store``, after the observers too), with the new state and the action's
/// metadata, on the thread that processed the action. It must return
/// quickly: the slow work goes inside the effect, which runs in its own task
/// (on an ``EffectRunner``). Rejected actions start no effects.
///
/// ```swift
/// let effects = Effects<Search, SearchAction> { action, state, _ in
///     guard case .queryChanged = action else { return .none }
///     let query = state.query
///     return .run(id: EffectID("search"), cancelInFlight: true) { send in
///         let results = await searchService.find(query)
///         await send(.resultsLoaded(results))
///     }
/// }
/// ```
public struct Effects<State: Sendable, Action: Sendable>: Sendable {
    @usableFromInline let handler: @Sendable (Action, State, Meta) -> Effect<Action>

    /// A handler deciding the effect of each accepted action.
    public init(_ handler: @escaping @Sendable (_ action: Action, _ state: State, _ meta: Meta) -> Effect<Action>) {
        self.handler = handler
    }
}
