/// Two reducers run one after the other; built by ``ReducerBuilder``. When both
/// handle the action, the state before the first is kept (so its changes copy)
/// and restored if the second rejects.
public struct ReducerSequence<First: Reducer, Second: Reducer>: Reducer
where First.State == Second.State, First.Action == Second.Action {
    let first: First
    let second: Second

    /// `first`, then `second`.
    public init(first: First, second: Second) {
        self.first = first
        self.second = second
    }

    /// Runs the reducers that handle `action`; the footprint is the union of theirs.
    public func reduce(into state: inout First.State, action: First.Action, meta: Meta) throws(Rejection) -> Footprint {
        switch (first.handles(action), second.handles(action)) {
        case (false, false):
            return .nothing
        case (true, false):
            return try first.reduce(into: &state, action: action, meta: meta)
        case (false, true):
            return try second.reduce(into: &state, action: action, meta: meta)
        case (true, true):
            let before = state
            let firstFootprint = try first.reduce(into: &state, action: action, meta: meta)
            do {
                return firstFootprint.union(try second.reduce(into: &state, action: action, meta: meta))
            } catch {
                state = before
                throw error
            }
        }
    }

    /// Whether either reducer handles `action`.
    public func handles(_ action: First.Action) -> Bool {
        first.handles(action) || second.handles(action)
    }
}
