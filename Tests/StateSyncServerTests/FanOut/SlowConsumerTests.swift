import StateSyncCore
import StateSyncProtocol
import Testing
@testable import StateSyncServer

@Suite(.timeLimit(.minutes(1)))
struct SlowConsumerTests {
    @Test func aSlowSessionGetsOneCoalescedPatchWhenDrained() async throws {
        let engine = try await boardEngine(configuration: engineConfiguration(highWaterMark: 1_000))
        let writer = engine.joinRecording("s-w", clientID: "c-w")
        let slow = engine.joinRecording("s-slow", role: .reader)
        let fast = engine.joinRecording("s-fast", role: .reader)
        for session in ["s-slow", "s-fast"] {
            engine.subscribe(session: session, id: "hits", path: pointer("/counters/hits"))
        }
        await slow.waitForAnswer("hits")
        await fast.waitForAnswer("hits")
        slow.setBacklog(5_000)
        for index in 0..<20 {
            engine.dispatch(session: "s-w", id: "a\(index)", action: increment("hits"))
        }
        await writer.waitForAnswer("a19")
        let fastPatches = await fast.wait { ServerMessage.patches($0, for: "hits").last?.rev == engine.revision }
        #expect(ServerMessage.patches(fastPatches, for: "hits").last?.ops == JSONPatch([.replace(path: .root, value: 20)]))
        let slowCount = slow.messages.count
        #expect(ServerMessage.patches(slow.messages, for: "hits").isEmpty)

        slow.setBacklog(0)
        engine.sessionDrained(session: "s-slow")
        let drained = await slow.wait { $0.count > slowCount }
        let patches = ServerMessage.patches(drained, for: "hits")
        #expect(patches.count == 1)
        #expect(patches.first?.rev == engine.revision)
        #expect(patches.first?.ops == JSONPatch([.replace(path: .root, value: 20)]))
        #expect(engine.statistics.slowConsumers == 1)
        await engine.shutdown()
    }

    @Test func aSlowSessionBeyondTheWindowGetsASnapshotThenItsHeldAnswers() async throws {
        let engine = try await boardEngine(configuration: engineConfiguration(historyWindow: 4, highWaterMark: 1_000))
        let slow = engine.joinRecording("s-slow", clientID: "c-s")
        engine.subscribe(session: "s-slow", id: "hits", path: pointer("/counters/hits"))
        await slow.waitForAnswer("hits")
        slow.setBacklog(5_000)
        for index in 0..<10 {
            engine.dispatch(session: "s-slow", id: "a\(index)", action: increment("hits"))
        }
        let writer = engine.joinRecording("s-w", clientID: "c-w")
        // The window holds the state at the end of each published batch:
        // five more batches, one at a time, push the slow session's base out of it.
        for index in 0..<5 {
            engine.dispatch(session: "s-w", id: "sync\(index)", action: increment("other"))
            await writer.waitForAnswer("sync\(index)")
        }
        #expect(slow.messages.count == 1)

        slow.setBacklog(0)
        engine.sessionDrained(session: "s-slow")
        let messages = await slow.waitForAnswer("a9")
        #expect(messages[1] == .snapshot(id: "hits", rev: engine.revision, value: 10))
        #expect(messages.dropFirst(2).allSatisfy { if case .ack = $0 { true } else { false } })
        #expect(messages.count == 12)
        await engine.shutdown()
    }

    @Test func aSubscriptionOpenedWhileSlowIsAnsweredOnDrain() async throws {
        let engine = try await boardEngine(configuration: engineConfiguration(highWaterMark: 1_000))
        let slow = engine.joinRecording("s-slow", clientID: "c-s")
        slow.setBacklog(5_000)
        engine.dispatch(session: "s-slow", id: "a1", action: increment("hits"))
        engine.subscribe(session: "s-slow", id: "hits", path: pointer("/counters/hits"), since: 1)
        let writer = engine.joinRecording("s-w", clientID: "c-w")
        engine.dispatch(session: "s-w", id: "sync", action: increment("other"))
        await writer.waitForAnswer("sync")
        #expect(slow.messages.isEmpty)

        slow.setBacklog(0)
        engine.sessionDrained(session: "s-slow")
        let messages = await slow.waitForAnswer("a1")
        #expect(messages.first == .snapshot(id: "hits", rev: engine.revision, value: 1))
        await engine.shutdown()
    }
}
