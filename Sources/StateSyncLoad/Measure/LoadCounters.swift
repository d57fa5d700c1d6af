import Synchronization

/// The run's counters, updated from every event loop (relaxed atomics: each
/// is a plain tally read for progress and at the end).
final class LoadCounters: Sendable {
    /// Handshakes completed.
    let connected = Atomic<Int>(0)
    /// Connections that failed to open (TCP, handshake or welcome).
    let failedConnects = Atomic<Int>(0)
    /// Clients with every subscription's snapshot received.
    let ready = Atomic<Int>(0)
    /// Clients whose connection opened again after the reconnect storm dropped it.
    let reconnected = Atomic<Int>(0)
    /// Clients that could not reconnect after the storm.
    let failedReconnects = Atomic<Int>(0)
    /// Clients with every subscription resumed after the storm.
    let resumed = Atomic<Int>(0)
    /// Subscriptions resumed after the storm with a `patch` from their
    /// revision, and with a fresh `snapshot` (the server's history no
    /// longer held their revision).
    let resumedByPatch = Atomic<Int>(0)
    let resumedBySnapshot = Atomic<Int>(0)
    /// Connections that closed before the run ended them.
    let dropped = Atomic<Int>(0)
    /// Writers still sending: their last tick (which sends what was due at
    /// the end) may come after the run's clock says the run is over.
    let writing = Atomic<Int>(0)
    /// `dispatch` messages sent.
    let sent = Atomic<Int>(0)
    /// Writer slots skipped because too many actions were unanswered.
    let skipped = Atomic<Int>(0)
    /// `ack`s received.
    let acked = Atomic<Int>(0)
    /// `reject`s received.
    let rejected = Atomic<Int>(0)
    /// `patch` messages received.
    let patches = Atomic<Int>(0)
    /// Revisions of the run's actions delivered to a subscription they concern.
    let deliveries = Atomic<Int>(0)
    /// Deliveries the acks call for (each ack: the subscriptions its path concerns).
    let expectedDeliveries = Atomic<Int>(0)
    /// Patches whose `base` was not the subscription's last revision.
    let gaps = Atomic<Int>(0)
    /// `error` messages, undecodable or unexpected messages, dropped connections.
    let errors = Atomic<Int>(0)
    /// Payload bytes received and sent.
    let bytesReceived = Atomic<Int>(0)
    let bytesSent = Atomic<Int>(0)
}

extension Atomic where Value == Int {
    /// Adds `amount` (relaxed: a tally).
    func bump(_ amount: Int = 1) {
        add(amount, ordering: .relaxed)
    }

    /// The tally so far.
    var current: Int { load(ordering: .relaxed) }
}

/// The first problems of a run, kept for the report (bounded), and reject codes.
final class ProblemLog: Sendable {
    /// Messages kept; later ones are only counted.
    static let limit = 20

    private struct State {
        var messages: [String] = []
        var rejectCodes: [String: Int] = [:]
    }

    private let state = Mutex(State())

    func note(_ message: String) {
        state.withLock { state in
            if state.messages.count < Self.limit { state.messages.append(message) }
        }
    }

    func reject(code: String) {
        state.withLock { $0.rejectCodes[code, default: 0] += 1 }
    }

    var messages: [String] { state.withLock { $0.messages } }
    var rejectCodes: [String: Int] { state.withLock { $0.rejectCodes } }
}
