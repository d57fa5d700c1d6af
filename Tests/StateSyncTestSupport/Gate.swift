import Synchronization

/// A gate that lets callers through while it is open and holds them while it is closed, e.g.
/// to stall a server's sessions (`StateSyncServerConfiguration.sessionWillHandleMessage`).
///
/// ```swift
/// let gate = Gate()
/// configuration.sessionWillHandleMessage = gate.whenOpen
/// gate.close()
/// defer { gate.open() }   // never leave a session stuck
/// ```
package final class Gate: Sendable {
    private struct State {
        var isOpen = true
        var waiting: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    /// An open gate.
    package init() {}

    /// Calls `proceed` at once while open; otherwise when the gate opens
    /// (e.g. `StateSyncServerConfiguration.sessionWillHandleMessage = gate.whenOpen`).
    @Sendable package func whenOpen(_ proceed: @escaping @Sendable () -> Void) {
        let isOpen = state.withLock { state in
            if !state.isOpen { state.waiting.append(proceed) }
            return state.isOpen
        }
        if isOpen { proceed() }
    }

    /// Makes later ``whenOpen(_:)`` calls wait.
    package func close() {
        state.withLock { $0.isOpen = false }
    }

    /// Lets every waiting and later ``whenOpen(_:)`` through.
    package func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        waiting.forEach { $0() }
    }
}
