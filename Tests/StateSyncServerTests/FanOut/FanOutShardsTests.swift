import BoardApp
import MetricsTestKit
import NIOCore
import NIOPosix
import StateSyncCore
import StateSyncJournal
import StateSyncProtocol
import Testing
@testable import StateSyncServer

/// The fan-out on several event loops: every session is sent to from its
/// own loop, and each keeps every guarantee on its own (snapshot, chained
/// patches, patches before its acks, coalescing while slow).
@Suite(.timeLimit(.minutes(1)))
struct FanOutShardsTests {
    static let loops = 3

    static func engine(on group: MultiThreadedEventLoopGroup) async throws -> SyncEngine<Board> {
        try await SyncEngine<Board>(
            journal: MemoryJournal(), configuration: engineConfiguration(), logger: quietLogger, eventLoops: group)
    }

    /// Joins `count` sessions `s-0`… spread over the group's loops, each subscribed to `path`.
    static func join(
        _ count: Int, to engine: SyncEngine<Board>, on group: MultiThreadedEventLoopGroup, path: String = "/counters/hits"
    ) async -> [LoopSink] {
        var sinks: [LoopSink] = []
        for index in 0..<count {
            let sink = LoopSink(eventLoop: group.next())
            _ = engine.join(session: SessionInfo(id: "s-\(index)", name: "s-\(index)"), clientID: "c-\(index)", role: .writer, sink: sink)
            engine.handle(.subscribe(id: "hits", path: pointer(path), since: nil), from: "s-\(index)")
            sinks.append(sink)
        }
        for sink in sinks { await sink.recording.waitForAnswer("hits") }
        return sinks
    }

    @Test func everySessionIsSentToFromItsOwnLoopWithoutGaps() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: Self.loops)
        let engine = try await Self.engine(on: group)
        let sinks = await Self.join(12, to: engine, on: group)
        for index in 0..<60 {
            engine.handle(.dispatch(id: "a\(index)", action: increment("hits")), from: "s-\(index % sinks.count)")
        }
        // Every action acked first (5 a session), so that the revision waited for is the last one.
        for sink in sinks {
            _ = await sink.recording.wait { messages in messages.count { if case .ack = $0 { true } else { false } } == 5 }
        }
        let final = engine.revision
        for (index, sink) in sinks.enumerated() {
            let messages = await sink.recording.wait { ServerMessage.patches($0, for: "hits").last?.rev == final }
            var last: UInt64?
            var value: Int64 = 0
            for message in messages {
                switch message {
                case let .snapshot(_, rev, .integer(start)):
                    last = rev
                    value = start
                case let .snapshot(_, rev, .null):
                    last = rev
                case let .patch(_, base, rev, ops):
                    #expect(base == last, "s-\(index): a patch from \(base) after \(String(describing: last))")
                    var mirror = JSONValue.integer(value)
                    try ops.apply(to: &mirror)
                    value = mirror.int64Value ?? -1
                    last = rev
                case let .ack(_, rev):
                    // Every patch up to an action's revision precedes its ack.
                    #expect(last.map { $0 >= rev } == true, "s-\(index): ack of \(rev) before its patch")
                default:
                    Issue.record("s-\(index): unexpected \(message)")
                }
            }
            #expect(value == 60)
            #expect(sink.messagesSentOffLoop == 0)
        }
        #expect(await engine.sessions().map(\.id).sorted() == (0..<sinks.count).map { "s-\($0)" }.sorted())
        await engine.shutdown()
        try await group.shutdownGracefully()
    }

    @Test func aSlowSessionOnOneLoopIsCoalescedWhileTheOthersKeepUp() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: Self.loops)
        let engine = try await Self.engine(on: group)
        let sinks = await Self.join(Self.loops * 2, to: engine, on: group)
        let slow = sinks[1]
        slow.recording.setWritable(false)
        for index in 0..<20 {
            engine.handle(.dispatch(id: "a\(index)", action: increment("hits")), from: "s-0")
        }
        await sinks[0].recording.waitForAnswer("a19")
        for (index, sink) in sinks.enumerated() where index != 1 {
            let messages = await sink.recording.wait { ServerMessage.patches($0, for: "hits").last?.rev == engine.revision }
            #expect(ServerMessage.patches(messages, for: "hits").count >= 1)
        }
        // Listing the sessions waits for every shard to run what was queued
        // before: the slow session's shard has held back the last batch.
        let summaries = await engine.sessions()
        #expect(summaries.first { $0.id == "s-1" }?.isSlow == true)
        let before = slow.recording.messages.count
        slow.recording.drain()
        let messages = await slow.recording.wait { ServerMessage.patches($0, for: "hits").last?.rev == engine.revision }
        let patches = ServerMessage.patches(Array(messages.dropFirst(before)), for: "hits")
        #expect(patches.count == 1)
        #expect(patches.first?.ops == JSONPatch([.replace(path: .root, value: 20)]))
        #expect(slow.messagesSentOffLoop == 0)
        await engine.shutdown()
        try await group.shutdownGracefully()
    }

    @Test func sinksWithoutALoopAreSpreadOverTheShards() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: Self.loops)
        let engine = try await Self.engine(on: group)
        let sinks = (0..<6).map { engine.joinRecording("r-\($0)", clientID: "c-\($0)") }
        for index in sinks.indices {
            engine.handle(.subscribe(id: "all", path: .root, since: nil), from: "r-\(index)")
        }
        engine.handle(.dispatch(id: "a", action: addTodo("Milk")), from: "r-0")
        for sink in sinks {
            let messages = await sink.wait { ServerMessage.patches($0, for: "all").contains { $0.rev == engine.revision } }
            #expect(messages.first.map { if case .snapshot = $0 { true } else { false } } == true)
        }
        await sinks[0].waitForAnswer("a")
        await engine.shutdown()
        try await group.shutdownGracefully()
    }
}
