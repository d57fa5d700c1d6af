import StateSyncCore

/// The benchmark's state: `size` counters keyed by id, and a title nobody changes.
struct BenchState: Sendable, Equatable {
    var counters: [Int: Int]
    var title = "bench"

    init(size: Int) {
        counters = Dictionary(uniqueKeysWithValues: (0..<size).map { ($0, 0) })
    }
}

/// One action: increment the counter `id`.
enum BenchAction: Sendable {
    case increment(Int)

    /// The element action for ``ForEachElement``.
    var counterStep: (Int, CounterStep)? {
        if case .increment(let id) = self { (id, .increment) } else { nil }
    }
}

/// What happens to one counter.
enum CounterStep: Sendable {
    case increment
}

/// The reducer: each action runs on one counter, so the footprint names that counter.
let benchReducer = ForEachElement(state: \BenchState.counters, action: \BenchAction.counterStep) {
    Reduce<Int, CounterStep> { value, _, _ in value += 1 }
}

/// The same transition as a root `Reduce`: its footprint is "everything", so
/// element observers fall back to comparing the collection and looking up
/// every observed element; and it copies the dictionary it changes, to be able
/// to reject atomically.
let rootReduceReducer = Reduce<BenchState, BenchAction> { state, action, _ in
    if case .increment(let id) = action { state.counters[id, default: 0] += 1 }
}

/// The same transition as a plain function, for the naive baseline.
func naiveReduce(_ state: BenchState, _ action: BenchAction) -> BenchState {
    var next = state
    if case .increment(let id) = action { next.counters[id, default: 0] += 1 }
    return next
}
