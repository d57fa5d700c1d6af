import NIOCore
package import NIOSSL
package import StateSyncCore
import StateSyncProtocol
package import Testing
package import WebSocket

/// A raw protocol client for end-to-end tests: sends JSON text exactly as
/// written and reads the server's replies as parsed JSON values.
package final class ProtocolClient {
    package let connection: WebSocketConnection
    /// The `welcome` received by ``joined(_:clientID:token:name:options:)``; `null` before.
    package private(set) var welcome: JSONValue = nil
    private var iterator: WebSocketInboundMessages.AsyncIterator

    private init(_ connection: WebSocketConnection) {
        self.connection = connection
        self.iterator = connection.inbound.makeAsyncIterator()
    }

    /// Opens a connection to `url`, offering `subprotocols`.
    package static func connect(
        _ url: String, subprotocols: [String] = [ProtocolVersion.subprotocol], configuration: WebSocketConfiguration = .init(),
        options: WebSocketChannelOptions = .init(), tlsConfiguration: TLSConfiguration? = nil
    ) async throws -> ProtocolClient {
        ProtocolClient(try await WebSocketClient.connect(
            url: url, subprotocols: subprotocols, configuration: configuration, options: options,
            tlsConfiguration: tlsConfiguration))
    }

    /// Connects and says hello; returns the client after checking the `welcome`.
    package static func joined(
        _ url: String, clientID: String? = nil, token: String? = nil, name: String? = nil, schemaVersion: Int? = nil,
        configuration: WebSocketConfiguration = .init(), options: WebSocketChannelOptions = .init()
    ) async throws -> ProtocolClient {
        let client = try await connect(url, configuration: configuration, options: options)
        var hello: JSONObject = ["type": "hello"]
        if let schemaVersion { hello["schemaVersion"] = .integer(Int64(schemaVersion)) }
        if let clientID { hello["clientId"] = .string(clientID) }
        if let token { hello["token"] = .string(token) }
        if let name { hello["name"] = .string(name) }
        try await client.send(.object(hello))
        let welcome = try await client.receive()
        try #require(welcome["type"] == "welcome", "expected welcome, got \(welcome)")
        client.welcome = welcome
        return client
    }

    /// Sends `text` as one text message, unchanged.
    package func send(_ text: String) async throws {
        try await connection.outbound.send(text: text)
    }

    /// Sends `value` serialized as one text message.
    package func send(_ value: JSONValue) async throws {
        try await send(JSONSerializer().string(for: value))
    }

    /// Sends a binary message.
    package func sendBinary(_ bytes: [UInt8]) async throws {
        try await connection.outbound.send(binary: ByteBuffer(bytes: bytes))
    }

    /// The next message, parsed; fails the test when the connection closed instead.
    package func receive(sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONValue {
        let message = try #require(await iterator.next(), "connection closed: \(String(describing: connection.closeStatus))", sourceLocation: sourceLocation)
        #expect(message.kind == .text, sourceLocation: sourceLocation)
        return try JSONParser().parse(Array(message.data.readableBytesView))
    }

    /// The next message of type `type`, failing on anything else first.
    package func receive(_ type: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONValue {
        let message = try await receive(sourceLocation: sourceLocation)
        #expect(message["type"]?.stringValue == type, "expected \(type), got \(message)", sourceLocation: sourceLocation)
        return message
    }

    /// The next message, parsed, or `nil` once the connection is closed.
    package func next() async throws -> JSONValue? {
        guard let message = await iterator.next() else { return nil }
        return try JSONParser().parse(Array(message.data.readableBytesView))
    }

    /// Reads until the connection closes and returns the messages that came first.
    package func drainUntilClosed() async throws -> [JSONValue] {
        var messages: [JSONValue] = []
        while let message = await iterator.next() {
            messages.append(try JSONParser().parse(Array(message.data.readableBytesView)))
        }
        return messages
    }

    /// The close code once closed.
    package var closeCode: UInt16? { connection.closeStatus?.code.code }

    /// The close reason once closed.
    package var closeReason: String? { connection.closeStatus?.reason }

    /// Closes normally and waits for the close handshake.
    package func close() async throws {
        try await connection.outbound.close(code: .normalClosure, reason: "")
    }
}
