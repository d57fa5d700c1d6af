import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// The board's pipeline in the real `statesync serve`: its logging and
/// analytics middleware, and the `/roll` effect whose answer is journaled,
/// so a restart after SIGKILL shows the same number and rolls nothing again.
@Suite(.timeLimit(.minutes(1)))
struct BoardPipelineProcessTests {
    /// The chat lines said by `from` in a `/chat` value.
    private static func lines(from: String, in chat: JSONValue?) -> [JSONValue] {
        (chat?.arrayValue ?? []).filter { $0["from"] == .string(from) }
    }

    @Test func rollIsAnsweredByAnEffectLoggedCountedAndReplayedAfterSIGKILL() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("statesync-roll-\(UUID().uuidString)").path
        let first = try ServeProcess(["serve", "--port", "0", "--data", data, "--log-level", "debug"])
        let port = try #require(try await first.waitForPort(), "no URL printed: \(first.standardError)")
        let alice = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", clientID: "c-alice", name: "alice")
        try await alice.send(#"{"type":"subscribe","id":"chat","path":"/chat"}"#)
        _ = try await alice.receive("snapshot")
        try await alice.send(#"{"type":"dispatch","id":"a1","action":{"type":"postMessage","text":"/roll 20"}}"#)
        // The say's patch, its ack, then the effect's follow-up: a later revision of /chat. A fan-out
        // still busy with the say when the follow-up commits sends both in one patch, then the ack.
        var seen: [String] = []
        var rolled = false
        while !(rolled && seen.contains("ack")) {
            let message = try await alice.receive()
            seen.append(message["type"]?.stringValue ?? "?")
            if message["type"] == "patch", JSONSerializer().string(for: message).contains(" rolled ") { rolled = true }
        }
        #expect(seen == ["patch", "ack", "patch"] || seen == ["patch", "ack"], "\(seen)")
        try await alice.send(#"{"type":"get","id":"g","path":"/chat"}"#)
        let dice = Self.lines(from: "dice", in: try await alice.receive("value")["value"])
        #expect(dice.count == 1)
        let text = try #require(dice.first?["text"]?.stringValue)
        let result = try #require(Int(text.split(separator: " ")[2]))
        #expect(text == "alice rolled \(result) (1-20)")
        #expect((1...20).contains(result))

        // Analytics middleware: one counter per type and outcome.
        let metrics = try await HTTPGet.get(port: port, path: "/metrics")
        let postLine = metrics.body.split(separator: "\n").first { $0.hasPrefix("statesync_actions_total") && $0.contains(#"type="postMessage""#) }
        #expect(postLine?.contains(#"outcome="accepted""#) == true, "\(metrics.body)")
        #expect(metrics.body.contains(#"type="rolled""#))
        // Logging middleware: one structured line per action, with its outcome and duration.
        let logLine = first.standardError.split(separator: "\n").first { $0.contains("type=postMessage") }
        #expect(logLine?.contains("outcome=accepted") == true, "\(first.standardError)")
        #expect(logLine?.contains("duration_us=") == true)

        first.send(SIGKILL)
        _ = await first.waitForExit()
        let second = try ServeProcess(["serve", "--port", "0", "--data", data])
        let port2 = try #require(try await second.waitForPort(), "no URL printed: \(second.standardError)")
        let bob = try await ProtocolClient.joined("ws://127.0.0.1:\(port2)/sync", clientID: "c-bob", name: "bob")
        try await bob.send(#"{"type":"get","id":"g","path":"/chat"}"#)
        let replayed = try await bob.receive("value")["value"]
        #expect(Self.lines(from: "dice", in: replayed) == dice)
        second.send(SIGTERM)
        #expect(await second.waitForExit() == 0)
    }
}
