import CoreMetrics
import DequeModule
import Logging
import StateSyncCore
import StateSyncProtocol

/// A message for one session: already encoded, or a whole value (snapshot
/// or `get` answer) that may be too large to encode on the shard's event loop.
enum Outgoing {
    /// Bytes to send as they are.
    case encoded([UInt8])
    /// A `snapshot` or `value` message and the value it carries.
    case whole(ServerMessage, JSONValue)
}

extension Publication {
    /// Whole values estimated above this many bytes are encoded by the
    /// ``AnswerEncoder`` rather than on the shard's loop. 16 KiB: encoding that
    /// much takes tens of microseconds, about what handing it over costs.
    static let inlineValueBytes = 16_384

    /// Answers `get`: the value at `path` (`null` when absent) at the
    /// published revision; held back (bounded) while the session is slow,
    /// and then answered with the value at the time it is sent.
    mutating func get(sessionID: String, id: String, path: JSONPointer) {
        guard let position = sessions.index(forKey: sessionID) else { return }
        let watch = slowConsumers
        guard watch.admits(&sessions.values[position]) else {
            hold(.value(id: id, path: path), at: position)
            return
        }
        let value = state[path] ?? .null
        send(.whole(.value(id: id, rev: revision, value: value), value), at: position)
    }

    /// Sends `message` to the session at `position`; a value above
    /// ``inlineValueBytes`` goes to the ``AnswerEncoder`` and marks the session
    /// slow. Returns whether the session may be sent more now.
    @discardableResult
    mutating func send(_ message: Outgoing, at position: [String: SessionRecord].Index) -> Bool {
        switch message {
        case .encoded(let bytes):
            send(bytes, to: sessions.values[position])
            return true
        case let .whole(message, value):
            if value.estimatedJSONBytes(upTo: Self.inlineValueBytes) <= Self.inlineValueBytes {
                send(encoder.encode(message), to: sessions.values[position])
                return true
            }
            sessions.values[position].isSlow = true
            let (drained, sessionID) = (slowConsumers.drained, sessions.keys[position])
            answerEncoder.send(message, to: sessions.values[position].sink) { drained(sessionID) }
            return false
        }
    }

    /// Holds `answer` back for the slow session at `position`. Past
    /// ``deferredLimits`` the session is given up: its sink closes it (1008) and
    /// what was held is dropped; re-sent dispatches get their first outcome.
    mutating func hold(_ answer: DeferredAnswer, at position: [String: SessionRecord].Index) {
        guard !sessions.values[position].isAbandoned else { return }
        let bytes = answer.bytes
        let session = sessions.values[position]
        guard session.deferred.count < deferredLimits.count, session.deferredBytes + bytes <= deferredLimits.bytes else {
            sessions.values[position].isAbandoned = true
            sessions.values[position].deferred = []
            sessions.values[position].deferredBytes = 0
            slowConsumers.logger.notice("closing a session that does not read its answers", metadata: [
                "session": "\(session.info.id)", "held": "\(session.deferred.count)", "bytes": "\(session.deferredBytes)",
            ])
            session.sink.close(reason: "too many answers held back: the connection does not read what it is sent")
            return
        }
        sessions.values[position].deferred.append(answer)
        sessions.values[position].deferredBytes += bytes
    }

    /// Sends the answers held back for the session at `position`, in order,
    /// while it takes them; stops at one that makes it slow again.
    mutating func sendDeferred(at position: [String: SessionRecord].Index) {
        let watch = slowConsumers
        while let answer = sessions.values[position].deferred.first {
            guard watch.admits(&sessions.values[position]) else { return }
            sessions.values[position].deferred.removeFirst()
            sessions.values[position].deferredBytes -= answer.bytes
            switch answer {
            case .message(let bytes):
                send(bytes, to: sessions.values[position])
            case let .value(id, path):
                let value = state[path] ?? .null
                guard send(.whole(.value(id: id, rev: revision, value: value), value), at: position) else { return }
            }
        }
    }
}
