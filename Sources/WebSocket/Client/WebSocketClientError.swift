/// Why ``WebSocketClient`` could not open a connection before the handshake.
public struct WebSocketClientError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Base: Equatable {
        case connectionFailed(host: String, port: Int, reason: String)
        case handshakeTimedOut(host: String, port: Int, seconds: Int64)
    }

    private let base: Base

    /// TCP (or TLS) to `host:port` failed; `reason` is the system's explanation.
    public static func connectionFailed(host: String, port: Int, reason: String) -> Self {
        Self(base: .connectionFailed(host: host, port: port, reason: reason))
    }

    /// The server did not complete the handshake in time.
    public static func handshakeTimedOut(host: String, port: Int, seconds: Int64) -> Self {
        Self(base: .handshakeTimedOut(host: host, port: port, seconds: seconds))
    }

    /// What failed, without the address: `connection refused`, or
    /// `the WebSocket handshake did not complete within 10 s`.
    public var reason: String {
        switch base {
        case .connectionFailed(_, _, let reason): reason
        case .handshakeTimedOut(_, _, let seconds): "the WebSocket handshake did not complete within \(seconds) s"
        }
    }

    /// A sentence naming what failed, e.g. `connection refused to 127.0.0.1:9`.
    public var description: String {
        switch base {
        case .connectionFailed(let host, let port, let reason):
            "\(reason) to \(host):\(port)"
        case .handshakeTimedOut(let host, let port, let seconds):
            "WebSocket handshake with \(host):\(port) did not complete within \(seconds) s"
        }
    }
}
