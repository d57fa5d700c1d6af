import CoreMetrics
import Dispatch
import StateSyncCore
import StateSyncProtocol
import Synchronization

/// Serializes large whole values (a subscription's `snapshot`, a `get`'s
/// `value`) off the fan-out shard's event loop, so that a `get ""` of a
/// state of megabytes costs the loop (and its other connections) a
/// reference to the value, not its encoding.
///
/// One serial queue of its own per shard (a private Dispatch queue: it
/// never takes an event loop's thread nor one of the few threads that run
/// the server's tasks, the sequencer's among them), made at its first job:
/// a store nobody asks for a whole value holds none. Jobs run in the order
/// they were handed over.
///
/// Ordering per session (``Publication``'s side of it): before handing over
/// a job the shard marks the session slow, so everything it has for the
/// session afterwards is held back (patches coalesced in the subscription
/// index, answers deferred). The job writes its message to the sink, then
/// asks the sink to report when it can take more; only that report (queued
/// on the shard's loop, see ``FanOutShard``) makes the shard send to the
/// session again. Both the job's write and the later writes of the shard
/// are queued on the connection in the order they were made, so nothing
/// sent after the job overtakes its message, and at most one encoded whole
/// value per session exists beyond what its sink holds.
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
