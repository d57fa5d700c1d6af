public import Synchronization

/// A Redux-style store: one state, changed only by actions through a pure
/// reducer, observed slice by slice.
///
/// ```swift
/// let store = Store(initialState: Board(), reducer: BoardReducer())
/// let status = store.send(.addTodo(title: "Milk"), clientID: "c-1")    // .accepted(meta) / .rejected / .queued
/// let result = await store.dispatch(.toggleTodo(id: "t1"))              // Result<Meta, Rejection>
/// for await hits in store.observe(\.counters.hits) { print(hits) }
/// ```
///
/// Dispatch is safe from any thread or task, in one total order (the revision).
/// A `Mutex` and a **drain role**, not an actor, keep `send` synchronous: the
/// first dispatcher to find the store idle reduces its own action and every
/// queued one; a dispatch meanwhile (another thread, middleware, an observer,
/// an effect) is queued and returns at once, so it cannot deadlock. Only the
/// pure reducer runs inside the lock; the rest runs on the draining thread,
/// which works for the others while they dispatch.
public final class Store<State: Sendable, Action: Sendable>: Sendable {
    // The dispatch path is `@inlinable` so that it is specialized for the
    // caller's State and Action; generic code shared by all types runs on
    // runtime type metadata, which cost about half of a dispatch.

    /// Shared state and queue, guarded by the mutex.
    @usableFromInline let core: Mutex<StoreCore<State, Action>>
    /// Used only by the thread holding the drain role (see ``DrainContext``).
    @usableFromInline let drainContext: DrainContext<State>
    /// Middleware, reducer and effect handler: what happens to each action.
    @usableFromInline let pipeline: ActionPipeline<State, Action>
    /// Runs the effects the pipeline asks for.
    @usableFromInline let effectRunner = EffectRunner<Action>()
    @usableFromInline let configuration: StoreConfiguration
    private let nextObserverID = Atomic<UInt64>(0)

    /// A store starting at `initialState` and `revision` (0 for a new history;
    /// the last snapshot's revision when restoring one); `middleware` runs in
    /// order around each action.
    public init(
        initialState: State,
        revision: UInt64 = 0,
        reducer: some Reducer<State, Action>,
        middleware: [any Middleware<State, Action>] = [],
        effects: Effects<State, Action>? = nil,
        configuration: StoreConfiguration = StoreConfiguration()
    ) {
        core = Mutex(StoreCore(state: initialState, revision: revision))
        drainContext = DrainContext(revision: revision)
        pipeline = ActionPipeline(reducer: reducer, middleware: middleware, effects: effects)
        self.configuration = configuration
    }

    deinit {
        // The effect runner, released with the store, cancels the effects still running.
        for delivery in drainContext.observers.finishAll() { delivery() }
    }

    /// The current state (as of ``revision``).
    @inlinable
    public var state: State {
        core.withLock { $0.state }
    }

    /// The revision of the current state: the initial revision plus the number of accepted actions.
    public var revision: UInt64 {
        core.withLock { $0.revision }
    }

    /// A fresh id for an observer.
    func makeObserverID() -> UInt64 {
        nextObserverID.add(1, ordering: .relaxed).newValue
    }
}
