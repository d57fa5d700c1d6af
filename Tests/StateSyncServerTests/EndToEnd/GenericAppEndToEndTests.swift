import StateSyncCore
import StateSyncServer
import StateSyncTestSupport
import Testing

/// The server is generic: a second app (key-value over `JSONValue`) is
/// served over the same protocol.
@Suite(.timeLimit(.minutes(1)))
struct GenericAppEndToEndTests {
    @Test func keyValueAppIsServedOverTheProtocol() async throws {
        try await TestServer.with(app: KeyValueApp.self) { server in
            let client = try await ProtocolClient.joined(server.url, clientID: "kv")
            try await client.send(#"{"type":"subscribe","id":"color","path":"/color"}"#)
            #expect(try await client.receive("snapshot")["value"] == nil as JSONValue)
            try await client.send(#"{"type":"dispatch","id":"a1","action":{"type":"put","key":"color","value":"blue"}}"#)
            let patch = try await client.receive("patch")
            #expect(patch["ops"] == [["op": "replace", "path": "", "value": "blue"]] || patch["ops"] == [["op": "add", "path": "", "value": "blue"]])
            #expect(try await client.receive("ack")["rev"] == patch["rev"])
            try await client.send(#"{"type":"dispatch","id":"a2","action":{"type":"delete","key":"size"}}"#)
            #expect(try await client.receive("reject")["code"] == "not_found")
            try await client.send(#"{"type":"dispatch","id":"a3","action":{"type":"addTodo","title":"Milk"}}"#)
            #expect(try await client.receive("reject")["code"] == "invalid_action")
        }
    }
}
