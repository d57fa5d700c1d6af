import StateSyncCore
import Testing
import StateSyncTestSupport

/// The "other client" of the browser tests: the issue asks for the CLI
/// (`statesync dispatch`, `statesync get`), which comes with issue 5; until
/// then this speaks the protocol with ``ProtocolClient``. Switching it to the
/// CLI processes changes only this file.
enum OtherClient {
    /// Dispatches `action` (a JSON object) and returns the `ack`'s revision;
    /// fails the test on a `reject`.
    static func dispatch(url: String, action: JSONValue, token: String? = nil) async throws -> UInt64 {
        let client = try await ProtocolClient.joined(url, token: token, name: "other-client")
        try await client.send(["type": "dispatch", "id": "o1", "action": action])
        var reply = try await client.receive()
        while reply["type"] == "patch" { reply = try await client.receive() }
        try await client.close()
        try #require(reply["type"] == "ack", "expected an ack, got \(reply)")
        return UInt64(try #require(reply["rev"]?.intValue))
    }

    /// The value at `path` (a JSON Pointer) now.
    static func get(url: String, path: String, token: String? = nil) async throws -> JSONValue {
        let client = try await ProtocolClient.joined(url, token: token, name: "other-client")
        try await client.send(["type": "get", "id": "g1", "path": .string(path)])
        let reply = try await client.receive("value")
        try await client.close()
        return reply["value"] ?? .null
    }

    /// Dispatches `action` expecting a `reject`; returns its code.
    static func dispatchRejected(url: String, action: JSONValue, token: String? = nil) async throws -> String {
        let client = try await ProtocolClient.joined(url, token: token, name: "other-client")
        try await client.send(["type": "dispatch", "id": "o1", "action": action])
        let reply = try await client.receive("reject")
        try await client.close()
        return try #require(reply["code"]?.stringValue)
    }
}
