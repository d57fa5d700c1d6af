/// A store for UI-local state whose changes are closures (``StateUpdate``),
/// with all of ``Store``'s ordering and observation. Closures cannot be
/// journaled: keep shared, durable state in a ``Store`` with real actions.
///
/// ```swift
/// let ui = LocalStore(initialState: Panel(isOpen: false, filter: ""))
/// ui.performStateUpdate { $0.isOpen = true }
/// for await isOpen in ui.observe(\.isOpen) { toggle(isOpen) }
/// ```
public typealias LocalStore<State: Sendable> = Store<State, StateUpdate<State>>

/// One change of a ``LocalStore``'s state: a closure run on it.
public struct StateUpdate<State>: Sendable, CustomStringConvertible {
    let apply: @Sendable (inout State) -> Void

    /// An update running `apply`.
    public init(_ apply: @escaping @Sendable (inout State) -> Void) {
        self.apply = apply
    }

    /// `StateUpdate` (closures have no readable form).
    public var description: String { "StateUpdate" }
}

/// The reducer of a ``LocalStore``: runs the update closure.
struct ApplyStateUpdate<State>: Reducer {
    func reduce(into state: inout State, action: StateUpdate<State>, meta: Meta) throws(Rejection) -> Footprint {
        action.apply(&state)
        return .everything
    }
}

extension Store {
    /// A ``LocalStore`` starting at `initialState`.
    public convenience init(initialState: State, configuration: StoreConfiguration = StoreConfiguration())
    where Action == StateUpdate<State> {
        self.init(initialState: initialState, reducer: ApplyStateUpdate(), configuration: configuration)
    }

    /// Changes the state with `update`, in order with every other update.
    /// Returns ``DispatchStatus/queued`` when called during another update
    /// (e.g. from an observer callback): it then runs right after that one.
    @discardableResult
    public func performStateUpdate(_ update: @escaping @Sendable (inout State) -> Void) -> DispatchStatus
    where Action == StateUpdate<State> {
        send(StateUpdate(update))
    }
}
