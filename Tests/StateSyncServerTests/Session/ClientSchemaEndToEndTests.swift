import StateSyncCore
import StateSyncServer
import StateSyncTestSupport
import Testing

/// App schema versions over real loopback sockets, against a server of the
/// key-value app at version 2 (version 1 wrote `set` for `put`): an older
/// client is refused `upgrade_required` over the WebSocket and over HTTP
/// while a current one goes on, and once the server accepts version 1 an
/// old client's actions are upcast before they are applied.
@Suite(.timeLimit(.minutes(1)))
struct ClientSchemaEndToEndTests {
    static func configuration(minimum: Int?) -> StateSyncServerConfiguration {
        var configuration = TestServer.configuration
        configuration.minimumClientSchema = minimum
        return configuration
    }

    @Test func anOlderClientIsRefusedOverBothTransportsAndACurrentOneIsUnaffected() async throws {
        try await TestServer.with(Self.configuration(minimum: nil), app: KeyValueV2App.self) { server in
            let current = try await ProtocolClient.connect(server.url)
            try await current.send(#"{"type":"hello","schemaVersion":2}"#)
            _ = try await current.receive("welcome")

            let old = try await ProtocolClient.connect(server.url)
            try await old.send(#"{"type":"hello","schemaVersion":1}"#)
            let refused = try await old.receive("error")
            #expect(refused["code"] == "upgrade_required")
            #expect(refused["message"]?.stringValue?.contains("this server accepts version 2") == true, "\(refused)")
            #expect(try await old.drainUntilClosed().isEmpty)
            #expect(old.closeCode == 4426)

            let newer = try await ProtocolClient.connect(server.url)
            try await newer.send(#"{"type":"hello","schemaVersion":3}"#)
            #expect(try await newer.receive("error")["code"] == "schema_too_new")
            _ = try await newer.drainUntilClosed()
            #expect(newer.closeCode == 1013)

            let oldHTTP = try await Curl.run(port: server.port, "/api/state", ["-H", "StateSync-Schema-Version: 1"])
            #expect(oldHTTP.status == 400, "\(oldHTTP.body)")
            #expect(try oldHTTP.json["code"] == "upgrade_required", "\(oldHTTP.body)")
            let newerHTTP = try await Curl.post(
                port: server.port, "/api/dispatch", #"{"type":"put","key":"x"}"#, headers: ["StateSync-Schema-Version: 3"])
            #expect(newerHTTP.status == 503 && newerHTTP.headers["retry-after"] == "1", "\(newerHTTP.body)")
            let garbled = try await Curl.run(port: server.port, "/api/state", ["-H", "StateSync-Schema-Version: two"])
            #expect(garbled.status == 400, "\(garbled.body)")
            #expect(try garbled.json["code"] == "bad_request", "\(garbled.body)")

            // The bystander of the current version dispatches as before.
            try await current.send(#"{"type":"dispatch","id":"a1","action":{"type":"put","key":"k","value":1}}"#)
            _ = try await current.receive("ack")
            let state = try await Curl.run(port: server.port, "/api/state", ["-H", "StateSync-Schema-Version: 2"])
            #expect(try state.json["value"]?["k"] == 1, "\(state.body)")
        }
    }

    @Test func anAcceptedOlderClientsActionsAreUpcastOverBothTransports() async throws {
        try await TestServer.with(Self.configuration(minimum: 1), app: KeyValueV2App.self) { server in
            let old = try await ProtocolClient.connect(server.url)
            try await old.send(#"{"type":"hello","schemaVersion":1}"#)
            _ = try await old.receive("welcome")
            try await old.send(#"{"type":"dispatch","id":"a1","action":{"type":"set","key":"ws","value":1}}"#)
            _ = try await old.receive("ack")
            let viaHTTP = try await Curl.post(
                port: server.port, "/api/dispatch", #"{"type":"set","key":"http","value":2}"#, headers: ["StateSync-Schema-Version: 1"])
            #expect(viaHTTP.status == 200, "\(viaHTTP.body)")
            // Without the header a `set` is today's action, which the app does not know.
            let unversioned = try await Curl.post(port: server.port, "/api/dispatch", #"{"type":"set","key":"no","value":3}"#)
            #expect(unversioned.status == 422, "\(unversioned.body)")
            let state = try await Curl.run(port: server.port, "/api/state")
            #expect(try state.json["value"] == ["ws": 1, "http": 2], "\(state.body)")
        }
    }
}
