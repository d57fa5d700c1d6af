import StateSyncClient
import StateSyncCore
import Synchronization

/// A client of one node that increments its own counter, one dispatch at a
/// time, until stopped, and records when each was acknowledged (the
/// client re-sends a dispatch whose answer a lost connection took, so each
/// is acknowledged once or rejected).
///
/// ```swift
/// let writer = CountingWriter(url: node.url, counter: "w0")
/// async let run: Void = writer.run()
/// try await writer.waitForAcks(3)
/// writer.stop()
/// try await run
/// ```
final class CountingWriter: Sendable {
    private struct Record {
        var acks: [ContinuousClock.Instant] = []
        var rejections: [DispatchRejection] = []
        var stopped = false
        var waiters: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var nextWaiter = 0
    }

    /// The counter it increments (`{"type":"increment","counter":…}`).
    let counter: String
    /// The client it dispatches with.
    let client: StateSyncClient
    private let record = Mutex(Record())

    /// A writer of `counter` through the node at `url` only.
    init(url: String, counter: String) {
        var configuration = StateSyncClientConfiguration(urls: [url])
        configuration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(400))
        client = StateSyncClient(configuration: configuration)
        self.counter = counter
    }

    /// When each dispatch was acknowledged, in order.
    var acks: [ContinuousClock.Instant] { record.withLock { $0.acks } }

    /// The dispatches the server refused.
    var rejections: [DispatchRejection] { record.withLock { $0.rejections } }

    /// Connects, then dispatches until ``stop()``; closes the client.
    func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.client.run() }
            try await client.waitUntilOnline()
            while !record.withLock({ $0.stopped }) {
                do {
                    try await client.dispatch(["type": "increment", "counter": .string(counter)])
                    acknowledged(at: .now)
                } catch let rejection as DispatchRejection {
                    record.withLock { $0.rejections.append(rejection) }
                }
            }
            await client.close()
            try await group.waitForAll()
        }
    }

    /// Returns once `count` dispatches in all were acknowledged, or the
    /// task is cancelled (a test past its time limit).
    func waitForAcks(_ count: Int) async {
        let id = record.withLock { record in
            defer { record.nextWaiter += 1 }
            return record.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = record.withLock { record in
                    guard record.acks.count < count, !Task.isCancelled else { return true }
                    record.waiters.append((id, count, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = record.withLock { record in
                defer { record.waiters.removeAll { $0.id == id } }
                return record.waiters.first { $0.id == id }
            }
            waiter?.continuation.resume()
        }
    }

    /// Ends ``run()`` after the dispatch in flight.
    func stop() {
        record.withLock { $0.stopped = true }
    }

    private func acknowledged(at instant: ContinuousClock.Instant) {
        let ready = record.withLock { record in
            record.acks.append(instant)
            let count = record.acks.count
            defer { record.waiters.removeAll { $0.count <= count } }
            return record.waiters.filter { $0.count <= count }.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }
}

extension [ContinuousClock.Instant] {
    /// The longest stretch of `window` without an instant of these (sorted)
    /// in it: how long their writer stood still.
    func longestGap(in window: Range<ContinuousClock.Instant>) -> Duration {
        let inside = filter { window.contains($0) }
        var longest = Duration.zero
        var previous = window.lowerBound
        for instant in inside + [window.upperBound] {
            longest = Swift.max(longest, instant - previous)
            previous = instant
        }
        return longest
    }
}
