import StateSyncCore
import StateSyncProtocol
import Synchronization
import Testing
@testable import StateSyncServer

/// A ``SessionSink`` that records every message and lets a test await them.
/// It is writable unless a test simulates a slow connection with
/// ``setWritable(_:)``, then ``drain()``s it.
final class RecordingSink: SessionSink {
    private struct Waiter {
        var predicate: @Sendable ([ServerMessage]) -> Bool
        var continuation: CheckedContinuation<[ServerMessage], Never>
    }

    private struct Recorded {
        var messages: [ServerMessage] = []
        var frames: [[UInt8]] = []
        var isWritable = true
        var drained: (@Sendable () -> Void)?
        var waiters: [Waiter] = []
        var closeReason: String?
    }

    private let recorded = Mutex(Recorded())

    func send(_ message: [UInt8]) {
        // The engine only sends what MessageEncoder wrote: decoding cannot fail here.
        let decoded = try! MessageDecoder().decodeServerMessage(message)
        let ready: [(CheckedContinuation<[ServerMessage], Never>, [ServerMessage])] = recorded.withLock { state in
            state.messages.append(decoded)
            state.frames.append(message)
            var ready: [(CheckedContinuation<[ServerMessage], Never>, [ServerMessage])] = []
            state.waiters.removeAll { waiter in
                guard waiter.predicate(state.messages) else { return false }
                ready.append((waiter.continuation, state.messages))
                return true
            }
            return ready
        }
        for (continuation, messages) in ready { continuation.resume(returning: messages) }
    }

    var isWritable: Bool { recorded.withLock { $0.isWritable } }

    func notifyWhenWritable(_ drained: @escaping @Sendable () -> Void) {
        let now: Bool = recorded.withLock { state in
            if state.isWritable { return true }
            state.drained = drained
            return false
        }
        if now { drained() }
    }

    func close(reason: String) {
        recorded.withLock { $0.closeReason = reason }
    }

    /// Why the engine closed the session, if it did.
    var closeReason: String? { recorded.withLock { $0.closeReason } }

    /// Simulates a connection whose backlog went above (`false`) or below its marks.
    func setWritable(_ writable: Bool) {
        recorded.withLock { $0.isWritable = writable }
    }

    /// Makes the sink writable and reports the drain the engine asked for;
    /// records an issue when the engine never asked.
    func drain() {
        let drained = recorded.withLock { state in
            state.isWritable = true
            defer { state.drained = nil }
            return state.drained
        }
        guard let drained else {
            Issue.record("the engine never asked to be told of the drain")
            return
        }
        drained()
    }

    /// Everything received so far.
    var messages: [ServerMessage] { recorded.withLock { $0.messages } }

    /// The raw frames received so far.
    var frames: [[UInt8]] { recorded.withLock { $0.frames } }

    /// Waits until the messages received satisfy `predicate`, and returns them.
    func wait(until predicate: @escaping @Sendable ([ServerMessage]) -> Bool) async -> [ServerMessage] {
        await withCheckedContinuation { continuation in
            let now: [ServerMessage]? = recorded.withLock { state in
                if predicate(state.messages) { return state.messages }
                state.waiters.append(Waiter(predicate: predicate, continuation: continuation))
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Waits for the answer (`ack`, `reject`, `value`, `unsubscribed`,
    /// `snapshot`) with `id`, and returns all messages up to and including it.
    @discardableResult
    func waitForAnswer(_ id: String) async -> [ServerMessage] {
        let messages = await wait { $0.contains { $0.answerID == id } }
        let end = messages.firstIndex { $0.answerID == id }!
        return Array(messages[...end])
    }
}

extension ServerMessage {
    /// The id of an answer to a request (not of a `patch`, which may come many times).
    var answerID: String? {
        switch self {
        case .ack(let id, _), .reject(let id, _, _), .value(let id, _, _), .unsubscribed(let id), .snapshot(let id, _, _),
             .authorized(let id, _, _), .error(let id?, _, _): id
        case .patch, .welcome, .error: nil
        }
    }

    /// The patches in `messages` for subscription `id`.
    static func patches(_ messages: [ServerMessage], for id: String) -> [(base: UInt64, rev: UInt64, ops: JSONPatch)] {
        messages.compactMap {
            if case let .patch(patchID, base, rev, ops) = $0, patchID == id { return (base, rev, ops) }
            return nil
        }
    }
}
