import Foundation
import NIOHTTP1
import NIOCore
import StateSyncCore
import StateSyncProtocol
import WebSocket

/// One `GET /api/watch` as an unannounced engine session: each snapshot and
/// patch is a Server-Sent Event whose `id` is the revision, so `Last-Event-ID`
/// resumes; a heartbeat comment keeps proxies from closing a quiet stream.
final class EventStreamSession<App: StateSyncApp>: SessionSink {
    private let stream: HTTPResponseStream
    private let decoder = MessageDecoder()

    private init(stream: HTTPResponseStream) {
        self.stream = stream
    }

    /// Starts the event stream on `stream` and keeps it until the client
    /// goes away, or until `expires` (the bearer token's expiry: an `error`
    /// event, then the end), then calls `ended`.
    static func start(
        _ stream: HTTPResponseStream, paths: [(text: String, pointer: JSONPointer)], since: UInt64?, role: Role,
        sessionID: String, engine: SyncEngine<App>, heartbeat: Duration, until expires: Date?, streams: EventStreams,
        ended: @escaping @Sendable () -> Void
    ) {
        stream.start(status: .ok, headers: [
            "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache", "X-Accel-Buffering": "no",
        ])
        stream.write(ByteBuffer(string: "retry: 1000\n\n"))
        let session = EventStreamSession(stream: stream)
        _ = engine.join(session: SessionInfo(id: sessionID, name: "watch"), clientID: nil, role: role, sink: session, announced: false)
        for path in paths {
            engine.handle(.subscribe(id: path.text, path: path.pointer, since: since), from: sessionID)
        }
        let interval = heartbeat.timeAmount
        let beat = stream.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            stream.write(ByteBuffer(string: ": heartbeat\n\n"))
        }
        let expiry = expires.map { expires in
            let delay = TimeAmount.nanoseconds(Int64(max(0, expires.timeIntervalSinceNow) * 1e9))
            return stream.eventLoop.scheduleTask(in: delay) {
                let error = ProtocolError.tokenRefused("it expired at \(expires.formatted(.iso8601))")
                let data: JSONValue = ["code": .string(error.code.rawValue), "message": .string(error.message)]
                stream.write(ByteBuffer(string: "event: error\ndata: \(JSONSerializer().string(for: data))\n\n"))
                stream.finish()
            }
        }
        streams.add(stream)
        stream.closeFuture.whenComplete { _ in
            beat.cancel()
            expiry?.cancel()
            engine.leave(session: sessionID)
            streams.remove(stream)
            ended()
        }
    }

    func send(_ message: [UInt8]) {
        // The engine only sends what MessageEncoder wrote.
        guard let decoded = try? decoder.decodeServerMessage(message) else { return }
        let event: String
        let rev: UInt64
        let data: JSONObject
        switch decoded {
        case let .snapshot(path, revision, value):
            (event, rev, data) = ("snapshot", revision, ["path": .string(path), "rev": .integer(Int64(revision)), "value": value])
        case let .patch(path, base, revision, ops):
            (event, rev, data) = ("patch", revision, [
                "path": .string(path), "base": .integer(Int64(base)), "rev": .integer(Int64(revision)), "ops": ops.jsonValue,
            ])
        default:
            return
        }
        stream.write(ByteBuffer(string: "event: \(event)\nid: \(rev)\ndata: \(JSONSerializer().string(for: .object(data)))\n\n"))
    }

    var isWritable: Bool { stream.isWritable }

    func notifyWhenWritable(_ drained: @escaping @Sendable () -> Void) {
        stream.whenWritable(drained)
    }

    /// Ends the event stream (an event stream has no close reason).
    func close(reason: String) {
        stream.finish()
    }
}
