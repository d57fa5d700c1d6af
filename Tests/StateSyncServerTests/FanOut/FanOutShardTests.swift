import Dispatch
import MetricsTestKit
import NIOCore
import NIOPosix
import StateSyncCore
import StateSyncProtocol
@testable import StateSyncServer
import Testing

/// One shard's queue: changes that arrive while its loop is busy are
/// published as one patch, with every answer after it; work queued between
/// two changes keeps them apart, in order.
@Suite(.timeLimit(.minutes(1)))
struct FanOutShardTests {
    private static let n = JSONPointer(tokens: ["n"])

    private static func change(_ value: Int64, answer id: String) -> PublishedChange {
        PublishedChange(
            state: ["n": .integer(value)], revisions: 1, change: MirrorDelta(cost: 1, paths: [n]),
            answers: [DispatchAnswer(
                sessionID: "s-1", actionID: id, outcome: .accepted(revision: UInt64(value)), received: .now, isDuplicate: false)])
    }

    /// A shard on a loop of its own, with `s-1` joined and subscribed to `/n` (its snapshot received).
    private static func subscribedShard(
        on loop: any EventLoop, metrics: TestMetrics
    ) async -> (FanOutShard, RecordingSink) {
        let shard = FanOutShard(
            eventLoop: loop, state: ["n": 0], revision: 0, history: (capacity: 16, budget: 1_000),
            deferredLimits: (1_024, 1 << 20), metrics: ServerMetrics(factory: metrics), logger: quietLogger)
        let sink = RecordingSink()
        shard.run {
            $0.join(SessionRecord(info: SessionInfo(id: "s-1", name: "s-1"), clientID: nil, role: .writer, sink: sink))
            $0.subscribe(sessionID: "s-1", id: "n", path: n, since: nil)
        }
        await sink.waitForAnswer("n")
        return (shard, sink)
    }

    /// Holds `loop` until the returned gate is signalled.
    private static func hold(_ loop: any EventLoop) -> DispatchSemaphore {
        let gate = DispatchSemaphore(value: 0)
        loop.execute { gate.wait() }
        return gate
    }

    @Test func changesQueuedWhileTheLoopIsBusyArePublishedAsOnePatchThenEveryAnswer() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let metrics = TestMetrics()
        let (shard, sink) = await Self.subscribedShard(on: group.next(), metrics: metrics)
        let gate = Self.hold(shard.eventLoop)
        for value in 1...3 { shard.publish(Self.change(Int64(value), answer: "a\(value)")) }
        gate.signal()
        let messages = await sink.waitForAnswer("a3")
        #expect(messages == [
            .snapshot(id: "n", rev: 0, value: 0),
            .patch(id: "n", base: 0, rev: 3, ops: JSONPatch([.replace(path: .root, value: 3)])),
            .ack(id: "a1", rev: 1), .ack(id: "a2", rev: 2), .ack(id: "a3", rev: 3),
        ])
        #expect(try metrics.expectCounter("statesync_fanout_changes_merged_total").totalValue == 2)
        #expect(try await shard.read { $0.revision }.get() == 3)
        try await group.shutdownGracefully()
    }

    @Test func workQueuedBetweenTwoChangesKeepsThemApartAndInOrder() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let metrics = TestMetrics()
        let (shard, sink) = await Self.subscribedShard(on: group.next(), metrics: metrics)
        let gate = Self.hold(shard.eventLoop)
        shard.publish(Self.change(1, answer: "a1"))
        shard.run { $0.subscribe(sessionID: "s-1", id: "late", path: Self.n, since: nil) }
        shard.publish(Self.change(2, answer: "a2"))
        gate.signal()
        let messages = await sink.waitForAnswer("a2")
        #expect(Array(messages.prefix(4)) == [
            .snapshot(id: "n", rev: 0, value: 0),
            .patch(id: "n", base: 0, rev: 1, ops: JSONPatch([.replace(path: .root, value: 1)])),
            .ack(id: "a1", rev: 1),
            .snapshot(id: "late", rev: 1, value: 1),
        ])
        // The two subscriptions of one path are sent to in no fixed order.
        #expect(Set(messages.dropFirst(4).dropLast()) == [
            .patch(id: "n", base: 1, rev: 2, ops: JSONPatch([.replace(path: .root, value: 2)])),
            .patch(id: "late", base: 1, rev: 2, ops: JSONPatch([.replace(path: .root, value: 2)])),
        ] as Set<ServerMessage>)
        #expect(messages.count == 7)
        #expect(messages.last == .ack(id: "a2", rev: 2))
        #expect(try metrics.expectCounter("statesync_fanout_changes_merged_total").totalValue == 0)
        try await group.shutdownGracefully()
    }
}
