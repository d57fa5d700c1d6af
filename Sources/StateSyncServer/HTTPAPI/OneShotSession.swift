import StateSyncCore
import StateSyncProtocol
import Synchronization

/// The short-lived, unannounced engine session of one HTTP API request: it
/// joins, asks one ``SessionRequest``, waits for the message answering it,
/// and leaves. Nothing of it is journaled (no presence).
final class OneShotSession<App: StateSyncApp>: SessionSink {
    private let answerID: String
    private let answer = Mutex<(message: ServerMessage?, waiter: CheckedContinuation<ServerMessage?, Never>?)>((nil, nil))

    private init(answerID: String) {
        self.answerID = answerID
    }

    /// Runs `request` as the session `info` (whose answer carries `answerID`)
    /// and returns the answer; `nil` when the engine has stopped.
    static func ask(
        _ request: SessionRequest, answerID: String, as info: SessionInfo, clientID: String?, role: Role,
        engine: SyncEngine<App>
    ) async -> ServerMessage? {
        let session = OneShotSession(answerID: answerID)
        _ = engine.join(session: info, clientID: clientID, role: role, sink: session, announced: false)
        defer { engine.leave(session: info.id) }
        guard await engine.submit(request, from: info.id) else { return nil }
        return await session.wait()
    }

    private func wait() async -> ServerMessage? {
        await withCheckedContinuation { continuation in
            let ready: ServerMessage?? = answer.withLock { answer in
                if let message = answer.message { return .some(message) }
                answer.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func send(_ message: [UInt8]) {
        // The engine only sends what MessageEncoder wrote.
        guard let decoded = try? MessageDecoder().decodeServerMessage(message), Self.answerID(of: decoded) == answerID else { return }
        let waiter = answer.withLock { answer -> CheckedContinuation<ServerMessage?, Never>? in
            guard answer.message == nil else { return nil }
            answer.message = decoded
            defer { answer.waiter = nil }
            return answer.waiter
        }
        waiter?.resume(returning: decoded)
    }

    /// Always: the session waits for one small answer.
    var isWritable: Bool { true }

    /// Never needed (always writable).
    func notifyWhenWritable(_ drained: @escaping @Sendable () -> Void) {
        drained()
    }

    /// Never needed (nothing is held back for a session that is always writable).
    func close(reason: String) {}

    private static func answerID(of message: ServerMessage) -> String? {
        switch message {
        case .ack(let id, _), .reject(let id, _, _), .value(let id, _, _): id
        default: nil
        }
    }
}
