public import Foundation

/// An exhaustive test helper for reducers and effects, in the style of TCA's
/// `TestStore`, that throws instead of depending on a test framework.
///
/// Each ``send(_:clientID:assert:)`` states how the state must change; any
/// change not stated (or stated but not made) throws a ``TestStoreFailure``
/// with a per-path diff. Actions produced by effects must be consumed with
/// ``receive(_:timeout:assert:)``, and ``finish(timeout:)`` fails when effects
/// are still running or produced actions nobody received.
///
/// ```swift
/// @Test func increments() async throws {
///     let store = TestStore(initialState: Counter(), reducer: CounterReducer(), effects: counterEffects)
///     try await store.send(.increment) { $0.count = 1 }
///     try await store.send(.startCountdown) { $0.isCounting = true }
///     try await store.receive(.tick) { $0.count = 0 }
///     try await store.finish()
/// }
/// ```
///
/// The clock is fixed (default: the Unix epoch), so reducers writing
/// `meta.time` are reproducible.
public final class TestStore<State: Equatable & Sendable, Action: Equatable & Sendable>: Sendable {
    /// The store under test (effects, middleware and observers all run normally).
    public let store: Store<State, Action>
    private let changes = ChangeLog<State, Action>()

    /// A test store over a real ``Store``.
    ///
    /// - Parameter time: the time every action is accepted at (default: the Unix epoch).
    public init(
        initialState: State,
        reducer: some Reducer<State, Action>,
        middleware: [any Middleware<State, Action>] = [],
        effects: Effects<State, Action>? = nil,
        time: Date = Date(timeIntervalSince1970: 0)
    ) {
        let changes = self.changes
        store = Store(
            initialState: initialState,
            reducer: reducer,
            middleware: middleware + [changes.middleware],
            effects: effects,
            configuration: StoreConfiguration(clock: { time })
        )
    }

    /// The current state of the store.
    public var state: State { store.state }

    /// Sends `action` and checks that the state changed exactly as `assert` says.
    ///
    /// - Parameter assert: mutates the expected state (the state before the
    ///   action) into the state the action must produce; omit it for an action
    ///   that must not change the state.
    /// - Returns: the action's metadata.
    /// - Throws: ``TestStoreFailure`` when the action is rejected, the state
    ///   differs, or effects produced actions that were not received first.
    @discardableResult
    public func send(
        _ action: Action, clientID: String? = nil, assert: (_ state: inout State) throws -> Void = { _ in }
    ) async throws -> Meta {
        try throwIfUnreceived()
        let meta: Meta
        switch await store.dispatch(action, clientID: clientID) {
        case .success(let accepted): meta = accepted
        case .failure(let rejection): throw TestStoreFailure.rejected(action, rejection)
        }
        let consumed = changes.take(through: meta.revision)
        if consumed.count > 1 {
            throw TestStoreFailure.unreceivedActions(consumed.dropLast().map { "\($0.action)" })
        }
        if let change = consumed.last {
            try check(change, assert: assert)
        }
        return meta
    }

    /// Sends `action` and checks that it is rejected (the state does not change).
    ///
    /// - Returns: the rejection, to check its code and message.
    /// - Throws: ``TestStoreFailure`` when the action is accepted.
    @discardableResult
    public func sendRejected(_ action: Action, clientID: String? = nil) async throws -> Rejection {
        try throwIfUnreceived()
        switch await store.dispatch(action, clientID: clientID) {
        case .success(let meta):
            _ = changes.take(through: meta.revision)
            throw TestStoreFailure.notRejected(action, revision: meta.revision)
        case .failure(let rejection):
            return rejection
        }
    }

    /// Waits for the next action an effect dispatched, checks that it is
    /// `action`, and that it changed the state exactly as `assert` says.
    ///
    /// - Parameter timeout: how long to wait for the action (default 1 second,
    ///   ample for in-process effects; raise it for effects that sleep).
    public func receive(
        _ action: Action, timeout: Duration = .seconds(1), assert: (_ state: inout State) throws -> Void = { _ in }
    ) async throws {
        guard let change = await nextChange(timeout: timeout) else {
            throw TestStoreFailure.noActionReceived(expected: action, timeout: timeout)
        }
        guard change.action == action else {
            throw TestStoreFailure.unexpectedAction(expected: action, received: change.action)
        }
        try check(change, assert: assert)
    }

    /// Throws when effects are still running (without waiting).
    public func assertNoPendingEffects() throws {
        let running = store.runningEffectCount
        if running > 0 { throw TestStoreFailure.effectsStillRunning(running) }
    }

    /// Ends the test: waits up to `timeout` for running effects, then throws
    /// if some still run (they are cancelled) or produced unreceived actions.
    public func finish(timeout: Duration = .seconds(1)) async throws {
        let store = self.store
        let stillRunning = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await store.effectsFinished()
                return true
            }
            group.addTask { await Self.sleep(for: timeout) }
            let finished = await group.next() ?? true
            var running = 0
            if !finished {
                running = store.runningEffectCount
                // Shutting down cancels the effects and releases the waiting child.
                await store.shutdown()
            }
            group.cancelAll()
            return running
        }
        if stillRunning > 0 { throw TestStoreFailure.effectsStillRunning(stillRunning) }
        try throwIfUnreceived()
    }

    /// Compares the change's new state with the expected one.
    private func check(_ change: StateChange<State, Action>, assert: (inout State) throws -> Void) throws {
        var expected = change.old
        try assert(&expected)
        guard expected != change.new else { return }
        throw TestStoreFailure.stateMismatch(change.action, diff: StateDiff.describe(expected: expected, actual: change.new))
    }

    private func throwIfUnreceived() throws {
        let pending = changes.pendingActions
        if !pending.isEmpty { throw TestStoreFailure.unreceivedActions(pending.map { "\($0)" }) }
    }

    /// The next change, or `nil` after `timeout`.
    private func nextChange(timeout: Duration) async -> StateChange<State, Action>? {
        let changes = self.changes
        return await withTaskGroup(of: StateChange<State, Action>?.self) { group in
            group.addTask { await changes.next() }
            group.addTask {
                _ = await Self.sleep(for: timeout)
                return nil
            }
            var first = await group.next() ?? nil
            group.cancelAll()
            // A change taken just as the timeout fired is still returned, not lost.
            while let late = await group.next() {
                if first == nil { first = late }
            }
            return first
        }
    }

    /// Sleeps for `duration`; returns `false` whether it ran out or was
    /// cancelled (the caller no longer needs the timeout then).
    private static func sleep(for duration: Duration) async -> Bool {
        do {
            try await Task.sleep(for: duration)
        } catch {
            // Cancelled: the awaited event came first.
        }
        return false
    }
}
