import StateSyncServer
import Synchronization

/// A sink shared by many benchmark sessions: counts messages and bytes and
/// lets the benchmark wait until a number of messages has arrived.
final class BenchSink: SessionSink {
    private struct Counts {
        var messages = 0
        var bytes = 0
        var lastFrame: [UInt8] = []
        var target = Int.max
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let counts = Mutex(Counts())

    func send(_ message: [UInt8]) {
        let waiter: CheckedContinuation<Void, Never>? = counts.withLock { counts in
            counts.messages += 1
            counts.bytes += message.count
            counts.lastFrame = message
            guard counts.messages >= counts.target, let waiter = counts.waiter else { return nil }
            counts.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Always: the benchmark measures the engine, not a slow socket.
    var isWritable: Bool { true }

    /// Never asked: the sink is always writable.
    func notifyWhenWritable(_ drained: @escaping @Sendable () -> Void) {
        drained()
    }

    /// Never asked: nothing is held back for an always-writable sink.
    func close(reason: String) {}

    /// Messages received so far.
    var messages: Int { counts.withLock { $0.messages } }

    /// Bytes received so far.
    var bytes: Int { counts.withLock { $0.bytes } }

    /// The last frame received.
    var lastFrame: [UInt8] { counts.withLock { $0.lastFrame } }

    /// Waits until `total` messages have arrived.
    func wait(forTotal total: Int) async {
        await withCheckedContinuation { continuation in
            let done = counts.withLock { counts in
                if counts.messages >= total { return true }
                counts.target = total
                counts.waiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }
}
