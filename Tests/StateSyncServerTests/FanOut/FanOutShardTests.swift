import Dispatch
import MetricsTestKit
import NIOCore
import NIOPosix
import StateSyncCore
import StateSyncProtocol
@testable import StateSyncServer
import Synchronization
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

    /// A shard on a loop of its own sending slices of `sliceLimit`, with
    /// sessions `s-1`… joined and subscribed to `/n` (their snapshots received).
    private static func subscribedShard(
        on loop: any EventLoop, metrics: TestMetrics, sessions: Int = 1, sliceLimit: Int = FanOutShard.sliceLimit
    ) async -> (FanOutShard, [RecordingSink]) {
        let shard = FanOutShard(
            eventLoop: loop, state: ["n": 0], revision: 0, history: (capacity: 16, budget: 1_000),
            deferredLimits: (1_024, 1 << 20), metrics: ServerMetrics(factory: metrics), logger: quietLogger,
            sliceLimit: sliceLimit)
        let sinks = (1...sessions).map { _ in RecordingSink() }
        for (index, sink) in sinks.enumerated() {
            shard.run {
                $0.join(SessionRecord(info: SessionInfo(id: "s-\(index + 1)", name: "s"), clientID: nil, role: .writer, sink: sink))
                $0.subscribe(sessionID: "s-\(index + 1)", id: "n", path: n, since: nil)
            }
        }
        for sink in sinks { await sink.waitForAnswer("n") }
        return (shard, sinks)
    }

    /// The patches `sinks` have received so far.
    private static func patchCount(_ sinks: [RecordingSink]) -> Int {
        sinks.reduce(0) { $0 + ServerMessage.patches($1.messages, for: "n").count }
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
        let (shard, sinks) = await Self.subscribedShard(on: group.next(), metrics: metrics)
        let sink = sinks[0]
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

    @Test func aRoundIsSentInSlicesWithTheLoopsOtherTasksBetweenAndTheShardsWorkAfter() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let metrics = TestMetrics()
        let (shard, sinks) = await Self.subscribedShard(on: group.next(), metrics: metrics, sessions: 5, sliceLimit: 2)
        let gate = Self.hold(shard.eventLoop)
        shard.publish(Self.change(1, answer: "a1"))
        let seenByTheLoop = Mutex<[Int]>([])
        let seenByTheShard = Mutex<[Int]>([])
        // Queued on the loop right behind the first slice: what it reads there runs between slices.
        shard.eventLoop.execute { seenByTheLoop.withLock { $0.append(Self.patchCount(sinks)) } }
        shard.run { _ in seenByTheShard.withLock { $0.append(Self.patchCount(sinks)) } }
        gate.signal()
        await sinks[0].waitForAnswer("a1")
        _ = try await shard.read { $0.revision }.get()
        #expect(seenByTheLoop.withLock { $0 } == [2])
        #expect(seenByTheShard.withLock { $0 } == [5], "the shard's own work waits for the whole round")
        for sink in sinks {
            #expect(ServerMessage.patches(sink.messages, for: "n").map(\.rev) == [1])
        }
        #expect(sinks[0].messages.last == .ack(id: "a1", rev: 1))
        #expect(try metrics.expectCounter("statesync_patches_sent_total").totalValue == 5)
        try await group.shutdownGracefully()
    }

    @Test func workQueuedBetweenTwoChangesKeepsThemApartAndInOrder() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let metrics = TestMetrics()
        let (shard, sinks) = await Self.subscribedShard(on: group.next(), metrics: metrics)
        let sink = sinks[0]
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
