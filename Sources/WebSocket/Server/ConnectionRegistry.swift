import NIOCore
import Synchronization

/// The open WebSocket connections of a server, so shutdown can close them with 1001 and wait. A connection's
/// handler adds it when installed and removes it when it ends, with no close-future callback per connection.
final class ConnectionRegistry: Sendable {
    private struct State {
        var open: [ObjectIdentifier: WebSocketOutbound] = [:]
        var emptyWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    var count: Int { state.withLock { $0.open.count } }

    /// Counts `outbound`'s connection as open.
    func add(_ outbound: WebSocketOutbound) {
        state.withLock { $0.open[ObjectIdentifier(outbound)] = outbound }
    }

    /// `outbound`'s connection ended; wakes the waiters when it was the last.
    func remove(_ outbound: WebSocketOutbound) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open[ObjectIdentifier(outbound)] = nil
            guard state.open.isEmpty else { return [] }
            defer { state.emptyWaiters = [:] }
            return Array(state.emptyWaiters.values)
        }
        waiters.forEach { $0.resume() }
    }

    /// Starts the close handshake on every open connection.
    func closeAll(code: WebSocketCloseCode, reason: String) {
        for outbound in state.withLock({ Array($0.open.values) }) {
            outbound.close(code: code, reason: reason, promise: nil)
        }
    }

    /// Drops every open connection's TCP connection without a handshake.
    func dropAll() {
        for outbound in state.withLock({ Array($0.open.values) }) {
            outbound.channel.close(promise: nil)
        }
    }

    /// Waits until no connection is open or `deadline` passes; returns whether all closed.
    func waitUntilEmpty(deadline: ContinuousClock.Instant) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.emptySignal(); return true }
            group.addTask {
                // Cancelled (by the group, once the other child finished) means "not timed out".
                do { try await Task.sleep(until: deadline); return false } catch { return true }
            }
            let first = await group.next() ?? true
            group.cancelAll()
            return first && count == 0
        }
    }

    private func emptySignal() async {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.open.isEmpty || Task.isCancelled { return true }
                    state.emptyWaiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.emptyWaiters.removeValue(forKey: id) }?.resume()
        }
    }
}
