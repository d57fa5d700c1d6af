import Synchronization

/// A continuous-clock time that a test moves by hand, for
/// `StateSyncServerConfiguration.sessionClock`. It counts its readings, so
/// a test can wait until the server has read it (stamped a message).
///
/// ```swift
/// let clock = ManualClock()
/// configuration.sessionClock = clock.now
/// let before = clock.readingCount
/// try await client.send(…)
/// await clock.waitForReading(after: before)   // the server stamped the message
/// clock.advance(by: .seconds(1))
/// ```
package final class ManualClock: Sendable {
    private struct State {
        var now: ContinuousClock.Instant
        var readings = 0
        var waiters: [(after: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>

    /// A clock standing at `start`.
    package init(start: ContinuousClock.Instant = .now) {
        state = Mutex(State(now: start))
    }

    /// The current time; counts as a reading.
    @Sendable package func now() -> ContinuousClock.Instant {
        let (now, ready) = state.withLock { state in
            state.readings += 1
            let readings = state.readings
            let ready = state.waiters.filter { $0.after < readings }.map(\.continuation)
            state.waiters.removeAll { $0.after < readings }
            return (state.now, ready)
        }
        ready.forEach { $0.resume() }
        return now
    }

    /// Moves the time forward.
    package func advance(by duration: Duration) {
        state.withLock { $0.now += duration }
    }

    /// How many times the clock has been read.
    package var readingCount: Int { state.withLock { $0.readings } }

    /// Returns once the clock has been read more than `count` times.
    package func waitForReading(after count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if state.readings > count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }
}
