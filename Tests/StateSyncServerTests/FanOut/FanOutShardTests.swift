import StateSyncJournal
import Dispatch
import MetricsTestKit
import NIOCore
import NIOPosix
import StateSyncCore
import StateSyncProtocol
import TestProcessSupport
@testable import StateSyncServer
import Synchronization
import Testing
import WebSocket

/// One shard's queue: changes that arrive while its loop is busy are
/// published as one patch, with every answer after it; work queued between
/// two changes keeps them apart, in order, unless it answers with the
/// latest state (a `get`, a drain), which then follows both.
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

    /// What `s-1` receives when changes 1 to 3 are published as one patch.
    private static let threeChangesAsOnePatch: [ServerMessage] = [
        .snapshot(id: "n", rev: 0, value: 0),
        .patch(id: "n", base: 0, rev: 3, ops: JSONPatch([.replace(path: .root, value: 3)])),
        .ack(id: "a1", rev: 1), .ack(id: "a2", rev: 2), .ack(id: "a3", rev: 3),
    ]

    /// What `s-1` receives when change 1 is published and then its
    /// subscription `late` to `/n` is made: the first four messages of the
    /// tests that queue a subscribe between two changes.
    private static let firstChangeThenTheLateSubscription: [ServerMessage] = [
        .snapshot(id: "n", rev: 0, value: 0),
        .patch(id: "n", base: 0, rev: 1, ops: JSONPatch([.replace(path: .root, value: 1)])),
        .ack(id: "a1", rev: 1),
        .snapshot(id: "late", rev: 1, value: 1),
    ]

    /// The patches `sinks` have received so far.
    private static func patchCount(_ sinks: [RecordingSink]) -> Int {
        sinks.reduce(0) { $0 + ServerMessage.patches($1.messages, for: "n").count }
    }

    /// A shard as ``subscribedShard(on:metrics:sessions:sliceLimit:)`` makes
    /// it, on a loop of its own that is held while `queueing` runs (so what
    /// it queues waits, in order), then let go before `checking`.
    private static func withHeldLoop(
        sessions: Int = 1, sliceLimit: Int = FanOutShard.sliceLimit,
        queueing: (FanOutShard, [RecordingSink]) -> Void,
        checking: (FanOutShard, [RecordingSink], TestMetrics) async throws -> Void
    ) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let metrics = TestMetrics()
        let (shard, sinks) = await subscribedShard(on: group.next(), metrics: metrics, sessions: sessions, sliceLimit: sliceLimit)
        let gate = DispatchSemaphore(value: 0)
        shard.eventLoop.execute { gate.wait() }
        queueing(shard, sinks)
        gate.signal()
        try await withCleanup {
            try await checking(shard, sinks, metrics)
        } cleanup: {
            try await group.shutdownGracefully()
        }
    }

    @Test func changesQueuedWhileTheLoopIsBusyArePublishedAsOnePatchThenEveryAnswer() async throws {
        try await Self.withHeldLoop { shard, _ in
            for value in 1...3 { shard.publish(Self.change(Int64(value), answer: "a\(value)")) }
        } checking: { shard, sinks, metrics throws in
            let messages = await sinks[0].waitForAnswer("a3")
            #expect(messages == Self.threeChangesAsOnePatch)
            #expect(try metrics.expectCounter("statesync_fanout_changes_merged_total").totalValue == 2)
            #expect(try await shard.read { $0.revision }.get() == 3)
        }
    }

    @Test func aRoundIsSentInSlicesWithTheLoopsOtherTasksBetweenAndTheShardsWorkAfter() async throws {
        let seenByTheLoop = Mutex<[Int]>([])
        let seenByTheShard = Mutex<[Int]>([])
        try await Self.withHeldLoop(sessions: 5, sliceLimit: 2) { shard, sinks in
            shard.publish(Self.change(1, answer: "a1"))
            // Queued on the loop right behind the first slice: what it reads there runs between slices.
            shard.eventLoop.execute { seenByTheLoop.withLock { $0.append(Self.patchCount(sinks)) } }
            shard.run { _ in seenByTheShard.withLock { $0.append(Self.patchCount(sinks)) } }
        } checking: { shard, sinks, metrics throws in
            await sinks[0].waitForAnswer("a1")
            _ = try await shard.read { $0.revision }.get()
            #expect(seenByTheLoop.withLock { $0 } == [2])
            #expect(seenByTheShard.withLock { $0 } == [5], "the shard's own work waits for the whole round")
            for sink in sinks {
                #expect(ServerMessage.patches(sink.messages, for: "n").map(\.rev) == [1])
            }
            #expect(sinks[0].messages.last == .ack(id: "a1", rev: 1))
            #expect(try metrics.expectCounter("statesync_patches_sent_total").totalValue == 5)
        }
    }

    @Test func workQueuedBetweenTwoChangesKeepsThemApartAndInOrder() async throws {
        try await Self.withHeldLoop { shard, _ in
            shard.publish(Self.change(1, answer: "a1"))
            shard.run { $0.subscribe(sessionID: "s-1", id: "late", path: Self.n, since: nil) }
            shard.publish(Self.change(2, answer: "a2"))
        } checking: { _, sinks, metrics throws in
            let messages = await sinks[0].waitForAnswer("a2")
            #expect(Array(messages.prefix(4)) == Self.firstChangeThenTheLateSubscription)
            // The two subscriptions of one path are sent to in no fixed order.
            #expect(Set(messages.dropFirst(4).dropLast()) == [
                .patch(id: "n", base: 1, rev: 2, ops: JSONPatch([.replace(path: .root, value: 2)])),
                .patch(id: "late", base: 1, rev: 2, ops: JSONPatch([.replace(path: .root, value: 2)])),
            ] as Set<ServerMessage>)
            #expect(messages.count == 7)
            #expect(messages.last == .ack(id: "a2", rev: 2))
            #expect(try metrics.expectCounter("statesync_fanout_changes_merged_total").totalValue == 0)
        }
    }

    @Test func aGetBetweenChangesDoesNotKeepThemApartAndIsAnsweredWithTheLatest() async throws {
        try await Self.withHeldLoop { shard, _ in
            shard.publish(Self.change(1, answer: "a1"))
            shard.runReadingLatest { $0.get(sessionID: "s-1", id: "g1", path: Self.n) }
            shard.publish(Self.change(2, answer: "a2"))
            shard.runReadingLatest { $0.get(sessionID: "s-1", id: "g2", path: Self.n) }
            shard.publish(Self.change(3, answer: "a3"))
        } checking: { _, sinks, metrics throws in
            let messages = await sinks[0].waitForAnswer("g2")
            #expect(messages == Self.threeChangesAsOnePatch + [
                .value(id: "g1", rev: 3, value: 3), .value(id: "g2", rev: 3, value: 3),
            ])
            #expect(try metrics.expectCounter("statesync_fanout_changes_merged_total").totalValue == 2)
        }
    }

    @Test func aChangeQueuedDuringASlicedRoundMergesIntoTheChangeThatWorkReadingTheLatestFollows() async throws {
        try await Self.withHeldLoop(sessions: 3, sliceLimit: 1) { shard, _ in
            shard.publish(Self.change(1, answer: "a1"))
            shard.run { $0.subscribe(sessionID: "s-1", id: "late", path: Self.n, since: nil) }
            shard.publish(Self.change(2, answer: "a2"))
            shard.runReadingLatest { $0.get(sessionID: "s-1", id: "g", path: Self.n) }
            // Runs after the round's first slice, when the jobs behind it were put back.
            shard.eventLoop.execute { shard.publish(Self.change(3, answer: "a3")) }
        } checking: { _, sinks, metrics throws in
            let messages = await sinks[0].waitForAnswer("g")
            #expect(Array(messages.prefix(4)) == Self.firstChangeThenTheLateSubscription)
            #expect(Set(messages.dropFirst(4).prefix(2)) == [
                .patch(id: "n", base: 1, rev: 3, ops: JSONPatch([.replace(path: .root, value: 3)])),
                .patch(id: "late", base: 1, rev: 3, ops: JSONPatch([.replace(path: .root, value: 3)])),
            ] as Set<ServerMessage>)
            #expect(Array(messages.dropFirst(6)) == [
                .ack(id: "a2", rev: 2), .ack(id: "a3", rev: 3), .value(id: "g", rev: 3, value: 3),
            ])
            #expect(try metrics.expectCounter("statesync_fanout_changes_merged_total").totalValue == 1)
        }
    }

    @Test func aSlowConsumersDrainBetweenChangesDoesNotKeepThemApartAndCatchesItUpToTheLatest() async throws {
        try await Self.withHeldLoop(sessions: 2) { shard, sinks in
            sinks[1].setWritable(false)
            shard.publish(Self.change(1, answer: "a1"))
            // On the loop after that round, which found s-2 not writable: the
            // drain it reports is queued between two changes.
            shard.eventLoop.execute {
                shard.publish(Self.change(2, answer: "a2"))
                sinks[1].drain()
                shard.publish(Self.change(3, answer: "a3"))
            }
        } checking: { shard, sinks, metrics throws in
            await sinks[0].waitForAnswer("a3")
            _ = try await shard.read { $0.revision }.get()
            #expect(ServerMessage.patches(sinks[0].messages, for: "n").map(\.rev) == [1, 3])
            #expect(sinks[1].messages == [
                .snapshot(id: "n", rev: 0, value: 0),
                .patch(id: "n", base: 0, rev: 3, ops: JSONPatch([.replace(path: .root, value: 3)])),
            ])
            #expect(try metrics.expectCounter("statesync_fanout_changes_merged_total").totalValue == 1)
        }
    }

    /// Records, for each message, whether it was sent inside its loop's ``EventLoopWriteBatch``.
    private final class BatchObservingSink: SessionSink {
        private let loop: any EventLoop
        private let inBatch = Mutex<[Bool]>([])

        init(loop: any EventLoop) { self.loop = loop }

        /// One entry per message sent: whether the loop's write batch was open.
        var sentInBatch: [Bool] { inBatch.withLock { $0 } }
        func send(_ message: [UInt8]) {
            let open = EventLoopWriteBatch.on(loop).isOpen
            inBatch.withLock { $0.append(open) }
        }
        var isWritable: Bool { true }
        func notifyWhenWritable(_ drained: @escaping @Sendable () -> Void) { drained() }
        func close(reason: String) {}
    }

    @Test func aDrainsWritesAreFlushedTogetherWhenItEnds() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let shard = FanOutShard(
            eventLoop: loop, state: ["n": 0], revision: 0, history: (capacity: 16, budget: 1_000),
            deferredLimits: (1_024, 1 << 20), metrics: ServerMetrics(factory: TestMetrics()), logger: quietLogger)
        let sink = BatchObservingSink(loop: loop)
        shard.run {
            $0.join(SessionRecord(info: SessionInfo(id: "s-1", name: "s"), clientID: nil, role: .writer, sink: sink))
            $0.subscribe(sessionID: "s-1", id: "n", path: Self.n, since: nil)
        }
        shard.publish(Self.change(1, answer: "a1"))
        _ = try await shard.read { $0.revision }.get()
        // The snapshot, the patch and the ack: each written with the batch open, so a session's messages of one drain go out in one `write`.
        #expect(sink.sentInBatch == [true, true, true])
        #expect(!(try await loop.submit { EventLoopWriteBatch.on(loop).isOpen }.get()), "closed between drains")
        try await group.shutdownGracefully()
    }
}
