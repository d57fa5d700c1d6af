import StateSyncCore
import StateSyncProtocol
import MetricsTestKit
import Testing
@testable import StateSyncServer

@Suite(.timeLimit(.minutes(1)))
struct SlowConsumerTests {
    @Test func aSlowSessionGetsOneCoalescedPatchWhenDrained() async throws {
        let metrics = TestMetrics()
        let engine = try await boardEngine(configuration: engineConfiguration(), metrics: metrics)
        let writer = engine.joinRecording("s-w", clientID: "c-w")
        let slow = engine.joinRecording("s-slow", role: .reader)
        let fast = engine.joinRecording("s-fast", role: .reader)
        for session in ["s-slow", "s-fast"] {
            engine.handle(.subscribe(id: "hits", path: pointer("/counters/hits"), since: nil), from: session)
        }
        await slow.waitForAnswer("hits")
        await fast.waitForAnswer("hits")
        slow.setWritable(false)
        for index in 0..<20 {
            engine.handle(.dispatch(id: "a\(index)", action: increment("hits")), from: "s-w")
        }
        await writer.waitForAnswer("a19")
        let fastPatches = await fast.wait { ServerMessage.patches($0, for: "hits").last?.rev == engine.revision }
        #expect(ServerMessage.patches(fastPatches, for: "hits").last?.ops == JSONPatch([.replace(path: .root, value: 20)]))
        let slowCount = slow.messages.count
        #expect(ServerMessage.patches(slow.messages, for: "hits").isEmpty)

        slow.drain()
        let drained = await slow.wait { $0.count > slowCount }
        let patches = ServerMessage.patches(drained, for: "hits")
        #expect(patches.count == 1)
        #expect(patches.first?.rev == engine.revision)
        #expect(patches.first?.ops == JSONPatch([.replace(path: .root, value: 20)]))
        #expect(try metrics.expectCounter("statesync_slow_consumers_total").totalValue == 1)
        await engine.shutdown()
    }

    @Test func aSlowSessionBeyondTheWindowGetsASnapshotThenItsHeldAnswers() async throws {
        let engine = try await boardEngine(configuration: engineConfiguration(historyWindow: 4))
        let slow = engine.joinRecording("s-slow", clientID: "c-s")
        engine.handle(.subscribe(id: "hits", path: pointer("/counters/hits"), since: nil), from: "s-slow")
        await slow.waitForAnswer("hits")
        slow.setWritable(false)
        for index in 0..<10 {
            engine.handle(.dispatch(id: "a\(index)", action: increment("hits")), from: "s-slow")
        }
        let writer = engine.joinRecording("s-w", clientID: "c-w")
        // The window holds the state at the end of each published batch:
        // five more batches, one at a time, push the slow session's base out of it.
        for index in 0..<5 {
            engine.handle(.dispatch(id: "sync\(index)", action: increment("other")), from: "s-w")
            await writer.waitForAnswer("sync\(index)")
        }
        #expect(slow.messages.count == 1)

        slow.drain()
        let messages = await slow.waitForAnswer("a9")
        #expect(messages[1] == .snapshot(id: "hits", rev: engine.revision, value: 10))
        #expect(messages.dropFirst(2).allSatisfy { if case .ack = $0 { true } else { false } })
        #expect(messages.count == 12)
        await engine.shutdown()
    }

    @Test func aSubscriptionOpenedWhileSlowIsAnsweredOnDrain() async throws {
        let engine = try await boardEngine(configuration: engineConfiguration())
        let slow = engine.joinRecording("s-slow", clientID: "c-s")
        slow.setWritable(false)
        engine.handle(.dispatch(id: "a1", action: increment("hits")), from: "s-slow")
        engine.handle(.subscribe(id: "hits", path: pointer("/counters/hits"), since: 1), from: "s-slow")
        let writer = engine.joinRecording("s-w", clientID: "c-w")
        engine.handle(.dispatch(id: "sync", action: increment("other")), from: "s-w")
        await writer.waitForAnswer("sync")
        #expect(slow.messages.isEmpty)

        slow.drain()
        let messages = await slow.waitForAnswer("a1")
        #expect(messages.first == .snapshot(id: "hits", rev: engine.revision, value: 1))
        await engine.shutdown()
    }
}
