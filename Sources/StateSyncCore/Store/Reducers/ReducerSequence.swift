/// Two reducers run one after the other on the same action; built by ``ReducerBuilder``.
///
/// If the second rejects, the store discards the first one's changes too (it
/// reduces on a copy), so a sequence is all-or-nothing.
public struct ReducerSequence<First: Reducer, Second: Reducer>: Reducer
where First.State == Second.State, First.Action == Second.Action {
    let first: First
    let second: Second

    /// `first`, then `second`.
    public init(first: First, second: Second) {
        self.first = first
        self.second = second
    }

    /// Runs both; the footprint is the union of theirs.
    public func reduce(into state: inout First.State, action: First.Action, meta: Meta) throws(Rejection) -> Footprint {
        let firstFootprint = try first.reduce(into: &state, action: action, meta: meta)
        let secondFootprint = try second.reduce(into: &state, action: action, meta: meta)
        return firstFootprint.union(secondFootprint)
    }
}
