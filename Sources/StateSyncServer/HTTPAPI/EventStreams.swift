import Synchronization
import WebSocket

/// The open `GET /api/watch` streams, so that a graceful shutdown can end
/// them (a stream otherwise lasts as long as its client).
final class EventStreams: Sendable {
    private let open = Mutex<[ObjectIdentifier: HTTPResponseStream]>([:])

    /// Records an open stream.
    func add(_ stream: HTTPResponseStream) {
        open.withLock { $0[ObjectIdentifier(stream)] = stream }
    }

    /// Forgets a closed stream.
    func remove(_ stream: HTTPResponseStream) {
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    /// Ends every open stream (their connections close).
    func finishAll() {
        for stream in open.withLock({ Array($0.values) }) { stream.finish() }
    }
}
