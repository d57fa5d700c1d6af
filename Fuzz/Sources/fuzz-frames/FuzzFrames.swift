import FuzzCheck
import NIOCore
import WebSocket

/// libFuzzer entry point for the WebSocket frame decoder.
///
/// The first byte of the input picks the decoder's settings (role, RSV1
/// allowed or not, the frame and message limits); the rest are the bytes
/// received. Frames are decoded until the decoder needs more bytes or
/// throws. Properties:
/// - a `nil` or a thrown error consumes nothing; a frame consumes at most
///   the readable bytes, and its payload is no longer than what it consumed;
/// - a decoded frame obeys the checks the decoder promises (masking by role,
///   reserved bits, control frames short and final, the limits);
/// - re-encoding the frame gives the bytes consumed when the length was
///   encoded in the shortest form, and in any case bytes that decode to
///   the same frame;
/// - the outcome does not depend on chunking: decoding a prefix of the
///   bytes gives either `nil` or exactly the whole buffer's outcome.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrames(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let settings = input.first else { return 0 }
    let role: WebSocketRole = settings & 1 == 0 ? .server : .client
    let reserved: WebSocketReservedBits = settings & 2 == 0 ? [] : .rsv1
    let maxFrameSize = [125, 1 << 10, 1 << 16, 1 << 20][Int(settings >> 2) & 3]
    let maxMessageSize = [1 << 8, 1 << 12, 1 << 20, Int.max][Int(settings >> 4) & 3]
    let decoder = FrameDecoder(role: role, maxFrameSize: maxFrameSize, allowedReservedBits: reserved)

    var buffer = ByteBuffer(bytes: input.dropFirst())
    var messageBytes = 0
    while true {
        let before = buffer
        let outcome = Result { () throws(WebSocketProtocolError) in
            try decoder.decode(from: &buffer, messageBytesReceived: messageBytes, maxMessageSize: maxMessageSize)
        }
        checkPrefixes(decoder, before, messageBytes, maxMessageSize, outcome, after: buffer)
        switch outcome {
        case .failure, .success(nil):
            check(buffer == before, "nil or an error consumes nothing")
            return 0
        case .success(let frame?):
            let consumed = buffer.readerIndex - before.readerIndex
            check(consumed > 0 && consumed <= before.readableBytes, "a frame consumes what was there", "\(consumed) of \(before.readableBytes)")
            checkFrame(frame, role: role, reserved: reserved, maxFrameSize: maxFrameSize, consumed: consumed)
            checkReencoding(frame, role: role, decoder: decoder, original: before.getSlice(at: before.readerIndex, length: consumed)!)
            if !frame.opcode.isControl {
                messageBytes = frame.fin ? 0 : messageBytes + frame.payload.readableBytes
            }
        }
    }
}

/// The promises of `FrameDecoder` about each frame it returns.
private func checkFrame(_ frame: WebSocketFrame, role: WebSocketRole, reserved: WebSocketReservedBits, maxFrameSize: Int, consumed: Int) {
    let length = frame.payload.readableBytes
    check(length <= consumed - 2, "the payload lies within the consumed bytes", "\(length) of \(consumed)")
    check(length <= maxFrameSize, "frames respect maxFrameSize", "\(length) > \(maxFrameSize)")
    check(frame.reservedBits.isSubset(of: reserved), "no reserved bit that was not allowed", "\(frame.reservedBits.rawValue)")
    check((frame.maskingKey != nil) == (role == .server), "masking follows the role", "\(frame)")
    if frame.opcode.isControl {
        check(frame.fin && length <= 125, "control frames are final and short", "\(frame)")
        check(!frame.rsv1, "no RSV1 on control frames")
    }
    if frame.opcode == .continuation { check(!frame.rsv1, "no RSV1 on continuation frames") }
}

/// The frame encodes back to the bytes it came from (shortest length form)
/// or at least to bytes that decode to the same frame.
private func checkReencoding(_ frame: WebSocketFrame, role: WebSocketRole, decoder: FrameDecoder, original: ByteBuffer) {
    // A server decodes what a client encodes, and the other way round.
    var encoder = FrameEncoder(role: role == .server ? .client : .server)
    var encoded = encoder.encode(frame)
    let length = frame.payload.readableBytes
    let shortest = 2 + (length <= 125 ? 0 : length <= 0xFFFF ? 2 : 8) + (frame.maskingKey == nil ? 0 : 4) + length
    if original.readableBytes == shortest {
        check(encoded == original, "re-encoding gives the original bytes", "\(Array(original.readableBytesView)) vs \(Array(encoded.readableBytesView))")
    }
    let redecoded = try? decoder.decode(from: &encoded)
    check(redecoded == frame, "the re-encoded frame decodes to itself", "\(frame)")
    check(encoded.readableBytes == 0, "the re-encoded frame is consumed whole")
}

/// Every prefix of `whole` (checked at up to three cut points) decodes to
/// `nil` or to `outcome`, consuming the same bytes: chunking does not matter.
private func checkPrefixes(
    _ decoder: FrameDecoder, _ whole: ByteBuffer, _ messageBytes: Int, _ maxMessageSize: Int,
    _ outcome: Result<WebSocketFrame?, WebSocketProtocolError>, after: ByteBuffer
) {
    let count = whole.readableBytes
    guard count > 1 else { return }
    for cut in Set([1, count / 2, count - 1]) {
        var prefix = whole.getSlice(at: whole.readerIndex, length: cut)!
        let partial = Result { () throws(WebSocketProtocolError) in
            try decoder.decode(from: &prefix, messageBytesReceived: messageBytes, maxMessageSize: maxMessageSize)
        }
        switch (partial, outcome) {
        case (.success(nil), _):
            check(prefix.readerIndex == 0, "nil on a prefix consumes nothing")
        case let (.success(a?), .success(b?)):
            check(a == b, "a prefix gives the same frame", "\(a) vs \(b)")
            check(prefix.readerIndex == after.readerIndex - whole.readerIndex, "a prefix consumes the same bytes")
        case let (.failure(a), .failure(b)):
            check(a == b, "a prefix fails the same way", "\(a) vs \(b)")
        default:
            check(false, "a prefix decodes as the whole does", "cut \(cut) of \(count): \(partial) vs \(outcome)")
        }
    }
}
