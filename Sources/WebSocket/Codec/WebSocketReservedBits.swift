/// The three reserved header bits (RFC 6455 §5.2), valued as in the first header byte. A bit no negotiated
/// extension claims must be zero, else the decoder fails the frame with 1002.
public struct WebSocketReservedBits: OptionSet, Hashable, Sendable {
    /// The bits, as they appear in the first header byte.
    public let rawValue: UInt8

    /// Wraps bits of the first header byte; bits outside `0x70` are dropped.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue & 0x70
    }

    /// RSV1 (`0x40`), claimed by permessage-deflate.
    public static let rsv1 = WebSocketReservedBits(rawValue: 0x40)
    /// RSV2 (`0x20`).
    public static let rsv2 = WebSocketReservedBits(rawValue: 0x20)
    /// RSV3 (`0x10`).
    public static let rsv3 = WebSocketReservedBits(rawValue: 0x10)
}
