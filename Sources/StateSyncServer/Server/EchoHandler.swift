import WebSocket

/// `/echo`: sends every message back unchanged (for Autobahn and interop checks).
struct EchoHandler: WebSocketEventLoopHandler {
    func webSocket(_ outbound: WebSocketOutbound, received message: WebSocketMessage) {
        outbound.write(message)
    }
}
