/// Runs an element reducer on one element of a keyed collection, chosen by the action.
///
/// `action` returns the element's key and the element action (or `nil` for
/// actions not meant for an element). A key that is not in the collection is
/// rejected with `not_found`, naming the key and the key path.
///
/// The footprint names that one element, so the store checks only observers of
/// that element (``Store/observe(_:id:)``) however many other elements are
/// observed. This is the way to keep dispatch cost flat with thousands of
/// element observers.
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
