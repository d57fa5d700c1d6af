import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

extension AbuseTests {
    /// Hardening: identifiers and names a client gives are bounded, so a long
    /// `hello` name does not reach every presence subscriber and the journal.
    @Suite(.timeLimit(.minutes(1)))
    struct IdentifierLimitsAbuseTests {
        @Test func longNamesAndIdsAreRefusedBeforeTheyReachPresenceOrTheJournal() async throws {
            let (server, port) = try await ServeProcess.serving()
            let url = "ws://127.0.0.1:\(port)/sync"
            let bystander = try await ProtocolClient.joined(url, name: "bystander")

            let attacker = try await ProtocolClient.connect(url)
            try await attacker.send(.object(["type": "hello", "name": .string(String(repeating: "n", count: 100_000))]))
            let refused = try await attacker.receive("error")
            #expect(refused["code"] == "bad_request")
            #expect(refused["message"]?.stringValue?.contains("100000 characters; at most 64 are accepted") == true)
            try await attacker.send(.object(["type": "hello", "clientId": .string(String(repeating: "c", count: 129))]))
            #expect(try await attacker.receive("error")["message"]?.stringValue?.contains("129 bytes; at most 128") == true)
            // Still waiting for a valid hello, which it may send.
            try await attacker.send(#"{"type":"hello","name":"short"}"#)
            _ = try await attacker.receive("welcome")
            try await attacker.send(.object(["type": "get", "id": .string(String(repeating: "i", count: 200)), "path": "/presence"]))
            #expect(try await attacker.receive("error")["code"] == "bad_request")

            try await bystander.send(#"{"type":"get","id":"p","path":"/presence"}"#)
            let presence = try await bystander.receive("value")["value"]?.objectValue
            #expect(presence?.values.map { $0["name"] } == ["bystander", "short"])
            let http = try await Curl.post(
                port: port, "/api/dispatch", .init(#"{"action":{"type":"postMessage","text":"hi"},"name":"\#(String(repeating: "x", count: 65))"}"#))
            #expect(http.status == 400)
            await server.stop()
        }
    }
}
