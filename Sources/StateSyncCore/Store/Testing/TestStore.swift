public import Foundation

/// An exhaustive test helper for reducers and effects, in the style of TCA's
/// `TestStore`, that throws instead of depending on a test framework.
///
/// Each ``send(_:clientID:assert:)`` states how the state changes; any other
/// change throws a ``TestStoreFailure`` with a per-path diff. Effects' actions
/// must be received; ``finish(timeout:)`` fails while effects run or actions
/// wait. The clock is fixed (default: the Unix epoch).
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
public final class TestStore<State: Equatable & Sendable, Action: Equatable & Sendable>: Sendable {
    /// The store under test (effects, middleware and observers all run normally).
    public let store: Store<State, Action>
    /// Every action the store processed (the sent ones and the effects'),
    /// accepted or rejected, that the test has not consumed yet.
    private let log = ActionLog<State, Action>()

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
        store = Store(
            initialState: initialState,
            reducer: reducer,
            middleware: middleware + [log.middleware],
            effects: effects,
            configuration: StoreConfiguration(clock: { time })
        )
    }

    /// The current state of the store.
    public var state: State { store.state }

    /// Sends `action` and checks that `assert` turns the state before it into
    /// the state after it (omit it when nothing changes); returns the metadata.
    /// - Throws: ``TestStoreFailure`` when rejected, when the state differs, or
    ///   when effects' actions were not received first.
    @discardableResult
    public func send(
        _ action: Action, clientID: String? = nil, assert: (_ state: inout State) throws -> Void = { _ in }
    ) async throws -> Meta {
        try throwIfUnreceived()
        switch await store.dispatch(action, clientID: clientID) {
        case .success(let meta):
            let consumed = log.take { $0.isAccepted(revision: meta.revision) }
            try throwIfUnreceived(before: consumed)
            if case .accepted(let change)? = consumed.last {
                try check(change, assert: assert)
            }
            return meta
        case .failure(let rejection):
            _ = log.take { $0.isRejection(of: action, with: rejection) }
            throw TestStoreFailure.rejected(action, rejection)
        }
    }

    /// Sends `action` and checks that it is rejected; returns the rejection.
    /// - Throws: ``TestStoreFailure`` when it is accepted, or when effects'
    ///   actions were not received first.
    @discardableResult
    public func sendRejected(_ action: Action, clientID: String? = nil) async throws -> Rejection {
        try throwIfUnreceived()
        switch await store.dispatch(action, clientID: clientID) {
        case .success(let meta):
            _ = log.take { $0.isAccepted(revision: meta.revision) }
            throw TestStoreFailure.notRejected(action, revision: meta.revision)
        case .failure(let rejection):
            // A rejection has no revision of its own: take the first rejection
            // of an equal action for the same reason (an identical rejected
            // action from an effect just before is indistinguishable).
            let consumed = log.take { $0.isRejection(of: action, with: rejection) }
            try throwIfUnreceived(before: consumed)
            return rejection
        }
    }

    /// Waits (up to `timeout`) for the next action an effect dispatched and
    /// checks it is `action`, accepted, and changed the state as `assert` says.
    /// - Throws: ``TestStoreFailure`` when any of that fails.
    public func receive(
        _ action: Action, timeout: Duration = .seconds(1), assert: (_ state: inout State) throws -> Void = { _ in }
    ) async throws {
        guard let entry = await nextEntry(timeout: timeout) else {
            throw TestStoreFailure.noActionReceived(expected: action, timeout: timeout)
        }
        switch entry {
        case .accepted(let change) where change.action == action:
            try check(change, assert: assert)
        case .rejected(let received, let rejection, _) where received == action:
            throw TestStoreFailure.receivedRejected(action, rejection)
        default:
            throw TestStoreFailure.unexpectedAction(expected: action, received: entry.summary)
        }
    }

    /// Waits (up to `timeout`) for the next action an effect dispatched and
    /// checks it is `action` and was rejected; returns the rejection.
    /// - Throws: ``TestStoreFailure`` when any of that fails.
    @discardableResult
    public func receiveRejected(_ action: Action, timeout: Duration = .seconds(1)) async throws -> Rejection {
        guard let entry = await nextEntry(timeout: timeout) else {
            throw TestStoreFailure.noActionReceived(expected: "\(action) (rejected)", timeout: timeout)
        }
        switch entry {
        case .rejected(let received, let rejection, _) where received == action:
            return rejection
        case .accepted(let change) where change.action == action:
            throw TestStoreFailure.receivedAccepted(action, revision: change.meta.revision)
        default:
            throw TestStoreFailure.unexpectedAction(expected: "\(action) (rejected)", received: entry.summary)
        }
    }

    /// Throws when effects are still running (without waiting).
    public func assertNoPendingEffects() throws {
        let running = store.runningEffectCount
        if running > 0 { throw TestStoreFailure.effectsStillRunning(running) }
    }

    /// Ends the test: waits up to `timeout` for running effects, then throws
    /// if some still run (they are cancelled) or produced actions nobody
    /// received, whether the store accepted or rejected them.
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

    /// Throws when the log holds actions nobody received.
    private func throwIfUnreceived() throws {
        let pending = log.pending
        if !pending.isEmpty { throw TestStoreFailure.unreceivedActions(pending.map(\.summary)) }
    }

    /// Throws when `consumed`, the entries up to a sent action's own (its
    /// last), holds others before it: effects' actions nobody received.
    private func throwIfUnreceived(before consumed: [LoggedAction<State, Action>]) throws {
        if consumed.count > 1 {
            throw TestStoreFailure.unreceivedActions(consumed.dropLast().map(\.summary))
        }
    }

    /// The next logged action, or `nil` after `timeout`.
    private func nextEntry(timeout: Duration) async -> LoggedAction<State, Action>? {
        let log = self.log
        return await withTaskGroup(of: LoggedAction<State, Action>?.self) { group in
            group.addTask { await log.next() }
            group.addTask {
                _ = await Self.sleep(for: timeout)
                return nil
            }
            var first = await group.next() ?? nil
            group.cancelAll()
            // An entry taken just as the timeout fired is still returned, not lost.
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
