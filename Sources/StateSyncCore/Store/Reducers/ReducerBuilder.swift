/// Builds one reducer from a list of reducers, run in order (see ``CombineReducers``).
@resultBuilder
public enum ReducerBuilder<State, Action> {
    /// A single reducer.
    public static func buildExpression<R: Reducer>(_ reducer: R) -> R
    where R.State == State, R.Action == Action {
        reducer
    }

    /// The first reducer of a block.
    public static func buildPartialBlock<R: Reducer>(first: R) -> R
    where R.State == State, R.Action == Action {
        first
    }

    /// The reducers so far followed by the next one.
    public static func buildPartialBlock<R0: Reducer, R1: Reducer>(
        accumulated: R0, next: R1
    ) -> ReducerSequence<R0, R1> where R0.State == State, R0.Action == Action, R1.State == State, R1.Action == Action {
        ReducerSequence(first: accumulated, second: next)
    }
}
