import StateSyncCore
import Synchronization

/// The answers a connection's reader hands to the task waiting for one,
/// by key (an action's `id`, or a message type such as `welcome`), each
/// wait bounded: a node that is paused or cut off never answers.
///
/// Waits past their deadline are ended by one ticker a mailbox, every
/// ``tick``, rather than by a timer each, started and cancelled for every
/// answer: the full suite crashed twice in libdispatch's timer loop on
/// Linux (`_dispatch_event_loop_drain`) while that ran thousands of times
/// a second.
final class Mailbox: Sendable {
    private struct State {
        var answers: [String: JSONValue] = [:]
        var waiter: (key: String, deadline: ContinuousClock.Instant, continuation: CheckedContinuation<JSONValue?, Never>)?
        var closed = false
    }

    /// How often overdue waits are ended.
    static let tick = Duration.milliseconds(100)

    private let state = Mutex(State())

    /// A mailbox whose ticker runs until ``close()``.
    init() {
        Task { [weak self] in
            while let mailbox = self, !mailbox.isClosed {
                try? await Task.sleep(for: Self.tick)
                mailbox.expireOverdue()
            }
        }
    }

    private var isClosed: Bool { state.withLock { $0.closed } }

    /// `answer` arrived for `key`: to its waiter, or kept for the next wait.
    func deliver(_ answer: JSONValue, for key: String) {
        let waiter = state.withLock { state -> CheckedContinuation<JSONValue?, Never>? in
            guard let waiter = state.waiter, waiter.key == key else {
                state.answers[key] = answer
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: answer)
    }

    /// The connection closed: the waiter, and every later wait, gets `nil`.
    func close() {
        let waiter = state.withLock { state in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter?.continuation
        }
        waiter?.resume(returning: nil)
    }

    /// The answer for `key`, or `nil` when none came within `timeout` (to
    /// a ``tick``) or the connection closed first. One wait at a time.
    func answer(for key: String, within timeout: Duration) async -> JSONValue? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Result<JSONValue?, Never>? in
                if let answer = state.answers.removeValue(forKey: key) { return .success(answer) }
                if state.closed { return .success(nil) }
                state.waiter = (key, .now + timeout, continuation)
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// Ends the wait under way if its deadline has passed.
    private func expireOverdue() {
        let waiter = state.withLock { state -> CheckedContinuation<JSONValue?, Never>? in
            guard let waiter = state.waiter, waiter.deadline <= .now else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: nil)
    }
}
