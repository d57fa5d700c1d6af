/// Runs an element reducer on the element of a keyed collection the action
/// names (`action` returns its key and action, or `nil`); a missing key is
/// rejected `not_found`. Its footprint is that element, so dispatch cost stays
/// flat however many elements are observed.
///
/// ```swift
/// ForEachElement(state: \Board.todos, action: { action in
///     if case .todo(let id, let todoAction) = action { (id, todoAction) } else { nil }
/// }) {
///     TodoReducer()
/// }
/// ```
public struct ForEachElement<State, Action, Elements: KeyedCollection, Element: Reducer>: Reducer
where Element.State == Elements.Value {
    private let statePath: any WritableKeyPath<State, Elements> & Sendable
    private let toElementAction: @Sendable (Action) -> (Elements.Key, Element.Action)?
    private let element: Element

    /// Runs `element` on the element of `state` whose key `action` extracts.
    public init<ElementState, ElementAction>(
        state: any WritableKeyPath<State, Elements> & Sendable,
        action: @escaping @Sendable (Action) -> (Elements.Key, ElementAction)?,
        @ReducerBuilder<ElementState, ElementAction> element: () -> Element
    ) where ElementState == Element.State, ElementAction == Element.Action {
        self.statePath = state
        self.toElementAction = action
        self.element = element()
    }

    /// Runs the element reducer in place on the chosen element.
    public func reduce(into state: inout State, action: Action, meta: Meta) throws(Rejection) -> Footprint {
        guard let (key, elementAction) = toElementAction(action) else { return .nothing }
        let footprint = try state[keyPath: statePath].updateElement(withKey: key) { (value) throws(Rejection) in
            try element.reduce(into: &value, action: elementAction, meta: meta)
        }
        guard let footprint else {
            throw Rejection.notFound("no element with key \(key) in \(statePath)")
        }
        return footprint.isNothing ? .nothing : .element(of: statePath, key: key)
    }

    /// Whether the action extraction finds an action here.
    public func handles(_ action: Action) -> Bool {
        toElementAction(action) != nil
    }
}
