/// Sends every message back as it came (text as text, binary as binary),
/// on the connection's event loop: the endpoint conformance suites such as
/// Autobahn|Testsuite drive.
///
/// ```swift
/// WebSocketRoute(path: "/echo", handler: .eventLoop(WebSocketEchoHandler()))
/// ```
public struct WebSocketEchoHandler: WebSocketEventLoopHandler {
    /// An echo handler.
    public init() {}

    /// Writes `message` back.
    public func webSocket(_ outbound: WebSocketOutbound, received message: WebSocketMessage) {
        outbound.write(message)
    }
}
