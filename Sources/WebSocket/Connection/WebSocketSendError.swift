/// Why this endpoint could not send something: a local mistake or state, not a peer violation, so the
/// connection is not failed for it.
public struct WebSocketSendError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case closing(WebSocketConnectionState)
        case controlPayloadTooLong(Int)
        case invalidCloseCode(WebSocketCloseCode)
        case invalidFragmentSize(Int)
        case compressionFailed(String)
    }

    private let base: Base

    private init(_ base: Base) {
        self.base = base
    }

    /// A data frame or ping was sent after this endpoint sent its close frame
    /// (RFC 6455 §5.5.1); the state at the time is given.
    public static func closing(_ state: WebSocketConnectionState) -> Self { Self(.closing(state)) }
    /// A ping or close payload of the given length is above 125 bytes.
    public static func controlPayloadTooLong(_ length: Int) -> Self { Self(.controlPayloadTooLong(length)) }
    /// The close code given may not be sent (see ``WebSocketCloseCode/isValidOnWire``).
    public static func invalidCloseCode(_ code: WebSocketCloseCode) -> Self { Self(.invalidCloseCode(code)) }
    /// A fragment size below 1 was asked for.
    public static func invalidFragmentSize(_ size: Int) -> Self { Self(.invalidFragmentSize(size)) }
    /// zlib could not compress; the text says why.
    public static func compressionFailed(_ reason: String) -> Self { Self(.compressionFailed(reason)) }

    /// What went wrong, naming the offending value.
    public var description: String {
        switch base {
        case .closing(let state): "cannot send: the connection is \(state)"
        case .controlPayloadTooLong(let length): "control frame payload of \(length) bytes is above 125"
        case .invalidCloseCode(let code): "close code \(code) may not be sent"
        case .invalidFragmentSize(let size): "fragment size \(size) is below 1"
        case .compressionFailed(let reason): "compression failed: \(reason)"
        }
    }
}
