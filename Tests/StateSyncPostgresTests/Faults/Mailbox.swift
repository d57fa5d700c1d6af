import StateSyncCore
import Synchronization

/// The answers a connection's reader hands to the task waiting for one,
/// by key (an action's `id`, or a message type such as `welcome`), each
/// wait bounded: a node that is paused or cut off never answers.
final class Mailbox: Sendable {
    private struct State {
        var answers: [String: JSONValue] = [:]
        var waiter: (key: String, wait: Int, continuation: CheckedContinuation<JSONValue?, Never>)?
        /// The timer of the wait under way, cancelled once it is answered.
        var timer: Task<Void, Never>?
        var waits = 0
        var closed = false
    }

    private let state = Mutex(State())

    /// `answer` arrived for `key`: to its waiter, or kept for the next wait.
    func deliver(_ answer: JSONValue, for key: String) {
        let waiter = state.withLock { state -> CheckedContinuation<JSONValue?, Never>? in
            guard let waiter = state.waiter, waiter.key == key else {
                state.answers[key] = answer
                return nil
            }
            state.waiter = nil
            state.timer?.cancel()
            return waiter.continuation
        }
        waiter?.resume(returning: answer)
    }

    /// The connection closed: the waiter, and every later wait, gets `nil`.
    func close() {
        let waiter = state.withLock { state in
            state.closed = true
            state.timer?.cancel()
            defer { state.waiter = nil }
            return state.waiter?.continuation
        }
        waiter?.resume(returning: nil)
    }

    /// The answer for `key`, or `nil` when none came within `timeout` or
    /// the connection closed first. One wait at a time.
    func answer(for key: String, within timeout: Duration) async -> JSONValue? {
        await withCheckedContinuation { continuation in
            // Either an answer now, or the number of the wait to expire later.
            let ready = state.withLock { state -> Result<JSONValue?, Never>? in
                if let answer = state.answers.removeValue(forKey: key) { return .success(answer) }
                if state.closed { return .success(nil) }
                state.waits += 1
                state.waiter = (key, state.waits, continuation)
                return nil
            }
            if let ready { return continuation.resume(with: ready) }
            state.withLock { state in
                guard let wait = state.waiter?.wait else { return }   // answered meanwhile
                state.timer = Task {
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }   // cancelled: answered
                    self.expire(wait)
                }
            }
        }
    }

    /// Wait number `wait`, if still waiting, gets `nil`.
    private func expire(_ wait: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<JSONValue?, Never>? in
            guard let waiter = state.waiter, waiter.wait == wait else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: nil)
    }
}
