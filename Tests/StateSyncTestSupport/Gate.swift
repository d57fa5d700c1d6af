import Synchronization

/// A gate tasks pass while it is open and wait at while it is closed, e.g.
/// to stall a server's sessions (`StateSyncServerConfiguration.sessionWillHandleMessage`).
///
/// ```swift
/// let gate = Gate()
/// configuration.sessionWillHandleMessage = { await gate.pass() }
/// gate.close()
/// defer { gate.open() }   // never leave a session stuck
/// ```
package final class Gate: Sendable {
    private struct State {
        var isOpen = true
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// An open gate.
    package init() {}

    /// Returns at once while open; otherwise when the gate opens.
    @Sendable package func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiting.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    /// Makes later ``pass()`` calls wait.
    package func close() {
        state.withLock { $0.isOpen = false }
    }

    /// Lets every waiting and later ``pass()`` through.
    package func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        waiting.forEach { $0.resume() }
    }
}
