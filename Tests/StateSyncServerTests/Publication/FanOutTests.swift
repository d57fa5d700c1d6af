import StateSyncCore
import StateSyncProtocol
import MetricsTestKit
import Testing
@testable import StateSyncServer

@Suite(.timeLimit(.minutes(1)))
struct FanOutTests {
    @Test func subscribersHearOnlyChangesOfTheirSlice() async throws {
        let engine = try await boardEngine()
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.handle(.subscribe(id: "hits", path: pointer("/counters/hits"), since: nil), from: "s-a")
        engine.handle(.subscribe(id: "todos", path: pointer("/todos"), since: nil), from: "s-a")
        engine.handle(.dispatch(id: "a1", action: addTodo("Milk")), from: "s-a")
        engine.handle(.dispatch(id: "a2", action: increment("misses")), from: "s-a")
        engine.handle(.dispatch(id: "a3", action: increment("hits", by: 3)), from: "s-a")
        let messages = await alice.waitForAnswer("a3")
        let hits = ServerMessage.patches(messages, for: "hits")
        #expect(hits.count == 1)
        #expect(hits.first?.ops == JSONPatch([.replace(path: .root, value: 3)]))
        #expect(ServerMessage.patches(messages, for: "todos").count == 1)
        await engine.shutdown()
    }

    @Test func patchesChainByBaseWithoutGaps() async throws {
        let engine = try await boardEngine()
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        let bob = engine.joinRecording("s-b", clientID: "c-b")
        engine.handle(.subscribe(id: "all", path: .root, since: nil), from: "s-b")
        let snapshot = await bob.waitForAnswer("all").last
        guard case let .snapshot(_, start, initial)? = snapshot else {
            Issue.record("expected a snapshot, got \(String(describing: snapshot))")
            return
        }
        for index in 0..<50 {
            engine.handle(.dispatch(id: "a\(index)", action: index % 2 == 0 ? addTodo("t\(index)") : increment("hits")), from: "s-a")
        }
        await alice.waitForAnswer("a49")
        let final = try await engine.value(at: "", session: "s-a", sink: alice)
        let messages = await bob.wait { ServerMessage.patches($0, for: "all").last?.rev == final.rev }
        var mirror = initial
        var last = start
        for patch in ServerMessage.patches(messages, for: "all") {
            #expect(patch.base == last)
            try patch.ops.apply(to: &mirror)
            last = patch.rev
        }
        #expect(mirror == final.value)
        await engine.shutdown()
    }

    @Test func valueIsNullWhereNothingIsYet() async throws {
        let engine = try await boardEngine()
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.handle(.subscribe(id: "later", path: pointer("/counters/later"), since: nil), from: "s-a")
        let snapshot = await alice.waitForAnswer("later").last
        guard case let .snapshot(_, _, value)? = snapshot else {
            Issue.record("expected a snapshot, got \(String(describing: snapshot))")
            return
        }
        #expect(value == .null)
        engine.handle(.dispatch(id: "a1", action: increment("later", by: 2)), from: "s-a")
        let messages = await alice.waitForAnswer("a1")
        #expect(ServerMessage.patches(messages, for: "later").first?.ops == JSONPatch([.replace(path: .root, value: 2)]))
        await engine.shutdown()
    }

    @Test func subscriptionsWithTheSameIdAndBaseShareTheSameBytes() async throws {
        let metrics = TestMetrics()
        let engine = try await boardEngine(metrics: metrics)
        let writer = engine.joinRecording("s-w", clientID: "c-w")
        let readers = (0..<3).map { engine.joinRecording("s-\($0)", role: .reader) }
        engine.handle(.dispatch(id: "joined", action: increment("hits")), from: "s-w")
        await writer.waitForAnswer("joined")
        // No revision between these subscriptions: they share one base.
        for index in readers.indices {
            engine.handle(.subscribe(id: "hits", path: pointer("/counters"), since: nil), from: "s-\(index)")
        }
        for reader in readers {
            await reader.waitForAnswer("hits")
        }
        engine.handle(.dispatch(id: "a1", action: increment("hits")), from: "s-w")
        await writer.waitForAnswer("a1")
        var frames: [[UInt8]] = []
        for reader in readers {
            let messages = await reader.wait { !ServerMessage.patches($0, for: "hits").isEmpty }
            frames.append(reader.frames[messages.count - 1])
        }
        #expect(Set(frames).count == 1)
        #expect(try metrics.expectCounter("statesync_patches_sent_total").totalValue >= 3)
        await engine.shutdown()
    }

    @Test func unsubscribedSubscriptionsHearNothingMore() async throws {
        let engine = try await boardEngine()
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.handle(.subscribe(id: "hits", path: pointer("/counters/hits"), since: nil), from: "s-a")
        engine.handle(.unsubscribe(id: "hits"), from: "s-a")
        engine.handle(.dispatch(id: "a1", action: increment("hits")), from: "s-a")
        let messages = await alice.waitForAnswer("a1")
        #expect(messages.contains(.unsubscribed(id: "hits")))
        #expect(ServerMessage.patches(messages, for: "hits").isEmpty)
        await engine.shutdown()
    }
}
