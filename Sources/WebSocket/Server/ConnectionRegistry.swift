import NIOCore
import Synchronization

/// The open WebSocket connections of a server, so that shutdown can close
/// them with 1001 and wait for them. Connections leave when their channel closes.
final class ConnectionRegistry: Sendable {
    private struct State {
        var open: [ObjectIdentifier: WebSocketOutbound] = [:]
        var emptyWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    var count: Int { state.withLock { $0.open.count } }

    func add(_ outbound: WebSocketOutbound) {
        let id = ObjectIdentifier(outbound)
        state.withLock { $0.open[id] = outbound }
        outbound.channel.closeFuture.whenComplete { _ in
            let waiters = self.state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.open[id] = nil
                guard state.open.isEmpty else { return [] }
                defer { state.emptyWaiters = [:] }
                return Array(state.emptyWaiters.values)
            }
            waiters.forEach { $0.resume() }
        }
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
