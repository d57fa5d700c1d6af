import NIOCore
import Synchronization
@testable import StateSyncServer

/// A ``RecordingSink`` whose session runs on `eventLoop`, and which counts
/// the messages the engine sent it from any other thread.
final class LoopSink: SessionSink {
    let recording = RecordingSink()
    let eventLoop: (any EventLoop)?
    private let sentElsewhere = Atomic(0)

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Messages sent from a thread other than the session's loop.
    var messagesSentOffLoop: Int { sentElsewhere.load(ordering: .relaxed) }

    func send(_ message: [UInt8]) {
        if eventLoop?.inEventLoop != true { sentElsewhere.add(1, ordering: .relaxed) }
        recording.send(message)
    }

    var isWritable: Bool { recording.isWritable }

    func notifyWhenWritable(_ drained: @escaping @Sendable () -> Void) {
        recording.notifyWhenWritable(drained)
    }

    func close(reason: String) {
        recording.close(reason: reason)
    }
}
