import NIOCore
import WebSocket

/// Builds the bytes of one frame by hand, independently of `FrameEncoder`,
/// so decoder tests do not depend on the encoder.
func frameBytes(
    fin: Bool = true,
    reservedBits: UInt8 = 0,
    opcode: UInt8,
    maskingKey: [UInt8]? = nil,
    payload: [UInt8]
) -> [UInt8] {
    var bytes: [UInt8] = [(fin ? 0x80 : 0) | reservedBits | opcode]
    let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
    if payload.count <= 125 {
        bytes.append(maskBit | UInt8(payload.count))
    } else if payload.count <= 0xFFFF {
        bytes.append(maskBit | 126)
        bytes += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    } else {
        bytes.append(maskBit | 127)
        bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: payload.count >> ($0 * 8)) }
    }
    if let maskingKey {
        bytes += maskingKey
        bytes += payload.enumerated().map { $0.element ^ maskingKey[$0.offset % 4] }
    } else {
        bytes += payload
    }
    return bytes
}

/// A client frame masked with a fixed key, as a server receives it.
func clientFrame(fin: Bool = true, reservedBits: UInt8 = 0, opcode: UInt8, payload: [UInt8]) -> [UInt8] {
    frameBytes(fin: fin, reservedBits: reservedBits, opcode: opcode, maskingKey: [0x37, 0xFA, 0x21, 0x3D], payload: payload)
}

/// Bytes of `text` in UTF-8.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

extension ByteBuffer {
    /// The readable bytes as an array.
    var bytes: [UInt8] { Array(readableBytesView) }
}

/// A deterministic generator (SplitMix64) so that randomized tests can be replayed from their seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Runs `machine.read` until it needs more bytes, collecting every action.
func readAll(_ machine: inout WebSocketConnectionStateMachine, _ bytes: [UInt8], now: NIODeadline = .uptimeNanoseconds(0))
    -> [WebSocketConnectionAction]
{
    var buffer = ByteBuffer(bytes: bytes)
    var actions: [WebSocketConnectionAction] = []
    while let action = machine.read(from: &buffer, now: now) {
        actions.append(action)
    }
    return actions
}

extension WebSocketConnectionAction {
    /// The close action, when this is one; for `try #require(action.closeAction)`.
    var closeAction: WebSocketCloseAction? {
        if case .close(let close) = self { return close }
        return nil
    }
}
