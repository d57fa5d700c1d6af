import NIOCore
import Synchronization

/// A one-time result (the bound address, or why starting failed) that any
/// number of tasks can wait for.
final class StartSignal: Sendable {
    private enum State {
        case waiting([CheckedContinuation<SocketAddress, any Error>])
        case done(Result<SocketAddress, any Error>)
    }

    private let state = Mutex(State.waiting([]))

    /// Waits for ``finish(_:)``.
    func wait() async throws -> SocketAddress {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<SocketAddress, any Error>? = state.withLock { state in
                switch state {
                case .waiting(var waiters):
                    waiters.append(continuation)
                    state = .waiting(waiters)
                    return nil
                case .done(let result):
                    return result
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// Sets the result (the first call wins) and wakes every waiter.
    func finish(_ result: Result<SocketAddress, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<SocketAddress, any Error>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .done(result)
            return waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }
}
