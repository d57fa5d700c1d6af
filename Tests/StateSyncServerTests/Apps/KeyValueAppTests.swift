import StateSyncCore
import StateSyncJournal
import StateSyncProtocol
import Testing
@testable import StateSyncServer

/// The engine serves any ``StateSyncApp``: here one whose state is a plain JSON document.
@Suite(.timeLimit(.minutes(1)))
struct KeyValueAppTests {
    @Test func servesASecondApp() async throws {
        let engine = try await SyncEngine<KeyValueApp>(journal: MemoryJournal(), configuration: engineConfiguration(), logger: quietLogger)
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.handle(.subscribe(id: "color", path: pointer("/color"), since: nil), from: "s-a")
        engine.handle(.subscribe(id: "size", path: pointer("/size"), since: nil), from: "s-a")
        engine.handle(.dispatch(id: "a1", action: ["type": "put", "key": "color", "value": "red"]), from: "s-a")
        engine.handle(.dispatch(id: "a2", action: ["type": "delete", "key": "size"]), from: "s-a")
        engine.handle(.dispatch(id: "a3", action: ["type": "paint"]), from: "s-a")
        let messages = await alice.waitForAnswer("a3")
        #expect(ServerMessage.patches(messages, for: "color").map(\.ops) == [JSONPatch([.replace(path: .root, value: "red")])])
        #expect(ServerMessage.patches(messages, for: "size").isEmpty)
        let answers = messages.filter { $0.answerID?.hasPrefix("a") == true }
        #expect(answers.count == 3)
        if case let .reject(_, code, _) = answers[1] { #expect(code == .notFound) } else { Issue.record("expected not_found, got \(answers[1])") }
        if case let .reject(_, code, _) = answers[2] { #expect(code == .invalidAction) } else { Issue.record("expected invalid_action, got \(answers[2])") }
        #expect(try await engine.value(at: "", session: "s-a", sink: alice).value == ["color": "red"])
        await engine.shutdown()
    }
}
