import CoreMetrics
import Dispatch
import StateSyncCore
import StateSyncProtocol
import Synchronization

/// Serializes large whole values off the shard's event loop, on one serial
/// Dispatch queue per shard. The session is marked slow before the hand-off,
/// so nothing overtakes the value until its sink reports the drain.
final class AnswerEncoder: Sendable {
    private let madeQueue = Mutex<DispatchQueue?>(nil)
    private let encoder: MessageEncoder
    private let metrics: ServerMetrics

    /// An encoder writing with `encoder` (its store's messages), counting
    /// the bytes it sends in `metrics`.
    init(metrics: ServerMetrics, encoder: MessageEncoder = MessageEncoder()) {
        self.metrics = metrics
        self.encoder = encoder
    }

    /// Encodes `message` and writes it to `sink` soon, then calls `drained`
    /// once the sink can take more (``SessionSink/notifyWhenWritable(_:)``).
    func send(_ message: ServerMessage, to sink: any SessionSink, then drained: @escaping @Sendable () -> Void) {
        let (encoder, metrics) = (encoder, metrics)
        let queue = madeQueue.withLock { made in
            if let made { return made }
            let queue = DispatchQueue(label: "statesync.answers")
            made = queue
            return queue
        }
        queue.async {
            let bytes = encoder.encode(message)
            sink.send(bytes)
            metrics.bytesSent.increment(by: Int64(bytes.count))
            sink.notifyWhenWritable(drained)
        }
    }

    /// Returns once every job handed over so far has run.
    func finish() async {
        guard let queue = madeQueue.withLock({ $0 }) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }
}
