public import NIOCore

/// An open WebSocket connection as a task sees it: the messages it receives and the writer it sends with,
/// handed out by server routes and ``WebSocketClient``.
///
/// ```swift
/// let connection = try await WebSocketClient.connect(url: "ws://127.0.0.1:8080/echo")
/// try await connection.outbound.send(text: "hi")
/// for await message in connection.inbound { print(message.text ?? "") ; break }
/// try await connection.outbound.close()
/// ```
public struct WebSocketConnection: Sendable {
    /// Received messages; ends when the connection closes.
    public let inbound: WebSocketInboundMessages
    /// The sending side.
    public let outbound: WebSocketOutbound

    /// The subprotocol agreed in the handshake, if any.
    public var subprotocol: String? { outbound.subprotocol }

    /// How the connection closed, once it has (see ``WebSocketOutbound/closeStatus``).
    public var closeStatus: WebSocketCloseStatus? { outbound.closeStatus }
}
