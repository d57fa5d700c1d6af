import WebSocket

/// `/echo`: sends every message back with its type, on the event loop.
struct EchoHandler: WebSocketEventLoopHandler {
    func webSocket(_ outbound: WebSocketOutbound, received message: WebSocketMessage) {
        outbound.write(message)
    }
}
