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
/// ## Order and threads
///
/// Dispatch is safe from any thread or task, and every action gets a place in
/// one total order (its revision). The store uses a `Mutex` and a **drain
/// role** rather than an actor: the first dispatcher to find the store idle
/// takes the role and processes its own action and then every queued one, in
/// order; a dispatch arriving meanwhile (from another thread, or re-entrantly
/// from a middleware, an observer callback or an effect) is appended to the
/// queue and returns ``DispatchStatus/queued`` at once, never waiting for a
/// lock held across user code, so it can neither deadlock nor crash.
/// Middleware, observer callbacks and effect handlers run outside the lock, on
/// the thread holding the drain role; only the reducer (pure, and unable to
/// reach the store) runs inside it. That is why the store runs its
/// ``ActionPipeline`` stage by stage rather than with
/// ``ActionPipeline/process(_:state:meta:)``; effects run on an
/// ``EffectRunner``.
///
/// Why not an actor: dispatch must be callable synchronously from any thread
/// (an event loop, a UI callback, a reducer test) and tell its outcome at
/// once; an actor makes every dispatch `async`, adds an executor hop, and
/// from synchronous code needs an unstructured task per dispatch. Cost of the
/// lock: an uncontended ``send(_:clientID:time:)`` takes it three times (claim,
/// reduce and publish, release), tens of nanoseconds, and never suspends; the
/// measured dispatch costs are in BENCHMARKS.md ("## Store"). The price is
/// fairness: the thread holding the role works for the others while they keep
/// dispatching, and readers of ``state`` wait while a reducer runs.
/// ``dispatch(_:clientID:time:)`` waits for the outcome with a continuation,
/// suspending only when queued.
///
/// ## Cost of a dispatch
///
/// The reducer changes the state in place, inside the lock (reducers are pure
/// and quick, and never touch the store), so the store keeps a single copy of
/// its state and an unchanged collection is never copied. Rejections still
/// leave the state exactly as it was: reducers guarantee it (see ``Reducer``),
/// the built-in ones at the cost of copying only what they may need to undo,
/// e.g. one element inside ``ForEachElement``. Middleware that observes state
/// changes (``Middleware/observesStateChanges``) makes the store keep the old
/// state for ``StateChange/old``, so the containers the reducer then touches
/// are copied once (copy-on-write); an observer of a whole large collection
/// does the same, since it keeps the last value to compare.
/// Observers cost one comparison per observed key path and, with
/// ``ForEachElement`` footprints, nothing per unrelated element observer (see
/// ``observe(_:id:)``).
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
    /// the last snapshot's revision when restoring one).
    ///
    /// - Parameters:
    ///   - middleware: run in order before the reducer and after each accepted action.
    ///   - effects: the effect handler; `nil` (default) starts no effects.
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
