import StateSyncCore
import StateSyncProtocol
import Testing
@testable import StateSyncServer

@Suite(.timeLimit(.minutes(1)))
struct ResumeTests {
    @Test func resumeWithinTheWindowIsAPatchFromSince() async throws {
        let engine = try await boardEngine(configuration: engineConfiguration(historyWindow: 64))
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.handle(.dispatch(id: "a1", action: increment("hits")), from: "s-a")
        await alice.waitForAnswer("a1")
        let since = engine.revision
        let before = try await engine.value(at: "/counters", session: "s-a", sink: alice).value
        engine.handle(.dispatch(id: "a2", action: increment("hits", by: 4)), from: "s-a")
        engine.handle(.dispatch(id: "a3", action: addTodo("unrelated")), from: "s-a")
        await alice.waitForAnswer("a3")
        engine.handle(.subscribe(id: "c", path: pointer("/counters"), since: since), from: "s-a")
        let messages = await alice.wait { !ServerMessage.patches($0, for: "c").isEmpty }
        let patch = try #require(ServerMessage.patches(messages, for: "c").first)
        #expect(patch.base == since)
        #expect(patch.rev == engine.revision)
        #expect(try patch.ops.applied(to: before) == ["hits": 5])
        await engine.shutdown()
    }

    @Test func resumeAtTheCurrentRevisionIsAnEmptyPatch() async throws {
        let engine = try await boardEngine()
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.handle(.dispatch(id: "a1", action: increment("hits")), from: "s-a")
        await alice.waitForAnswer("a1")
        engine.handle(.subscribe(id: "c", path: pointer("/counters"), since: engine.revision), from: "s-a")
        let messages = await alice.wait { !ServerMessage.patches($0, for: "c").isEmpty }
        #expect(ServerMessage.patches(messages, for: "c").first?.ops.isEmpty == true)
        await engine.shutdown()
    }

    @Test(arguments: [UInt64(1), 1_000])
    func resumeOutsideTheWindowIsASnapshot(since: UInt64) async throws {
        let engine = try await boardEngine(configuration: engineConfiguration(historyWindow: 4))
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        for index in 0..<10 {
            engine.handle(.dispatch(id: "a\(index)", action: increment("hits")), from: "s-a")
            await alice.waitForAnswer("a\(index)")
        }
        engine.handle(.subscribe(id: "c", path: pointer("/counters/hits"), since: since), from: "s-a")
        let answer = await alice.waitForAnswer("c").last
        #expect(answer == .snapshot(id: "c", rev: engine.revision, value: 10))
        await engine.shutdown()
    }
}
