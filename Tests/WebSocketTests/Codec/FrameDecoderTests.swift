import NIOCore
import Testing
import WebSocket

@Suite struct FrameDecoderTests {
    private func decode(_ bytes: [UInt8], role: WebSocketRole = .client, maxFrameSize: Int = 1 << 20)
        throws(WebSocketProtocolError) -> WebSocketFrame?
    {
        var buffer = ByteBuffer(bytes: bytes)
        return try FrameDecoder(role: role, maxFrameSize: maxFrameSize).decode(from: &buffer)
    }

    // MARK: RFC 6455 §5.7 examples

    @Test func singleFrameUnmaskedText() throws {
        let frame = try #require(try decode([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]))
        #expect(frame.fin && frame.opcode == .text && frame.maskingKey == nil)
        #expect(frame.payload.bytes == utf8("Hello"))
    }

    @Test func singleFrameMaskedText() throws {
        let frame = try #require(
            try decode([0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58], role: .server)
        )
        #expect(frame.maskingKey == WebSocketMaskingKey(0x37, 0xfa, 0x21, 0x3d))
        #expect(frame.payload.bytes == utf8("Hello"))
    }

    @Test func fragmentedUnmaskedText() throws {
        var buffer = ByteBuffer(bytes: [0x01, 0x03, 0x48, 0x65, 0x6c, 0x80, 0x02, 0x6c, 0x6f])
        let decoder = FrameDecoder(role: .client)
        let first = try #require(try decoder.decode(from: &buffer))
        let second = try #require(try decoder.decode(from: &buffer))
        #expect(!first.fin && first.opcode == .text && first.payload.bytes == utf8("Hel"))
        #expect(second.fin && second.opcode == .continuation && second.payload.bytes == utf8("lo"))
        #expect(buffer.readableBytes == 0)
    }

    @Test func unmaskedPingAndMaskedPong() throws {
        let ping = try #require(try decode([0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]))
        #expect(ping.opcode == .ping && ping.payload.bytes == utf8("Hello"))
        let pong = try #require(
            try decode([0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58], role: .server)
        )
        #expect(pong.opcode == .pong && pong.payload.bytes == utf8("Hello"))
    }

    @Test func binary256BytesUses16BitLength() throws {
        let payload = (0..<256).map { UInt8(truncatingIfNeeded: $0) }
        let bytes = [0x82, 0x7E, 0x01, 0x00] + payload
        let frame = try #require(try decode(bytes))
        #expect(frame.opcode == .binary && frame.payload.bytes == payload)
    }

    @Test func binary64KiBUses64BitLength() throws {
        let payload = (0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let bytes: [UInt8] = [0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00] + payload
        let frame = try #require(try decode(bytes))
        #expect(frame.payload.readableBytes == 65536 && frame.payload.bytes == payload)
    }

    @Test func nonMinimalLengthEncodingIsAccepted() throws {
        let frame = try #require(try decode([0x82, 0x7E, 0x00, 0x02, 0xAA, 0xBB]))
        #expect(frame.payload.bytes == [0xAA, 0xBB])
    }

    // MARK: Partial input

    @Test func returnsNilAndConsumesNothingUntilTheFrameIsWhole() throws {
        let bytes: [UInt8] = [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]
        let decoder = FrameDecoder(role: .server)
        for length in 0..<bytes.count {
            var buffer = ByteBuffer(bytes: bytes[..<length])
            #expect(try decoder.decode(from: &buffer) == nil)
            #expect(buffer.readableBytes == length)
        }
    }

    // MARK: Errors

    @Test(arguments: [UInt8(0x40), 0x20, 0x10, 0x70])
    func reservedBitsWithoutExtension(bits: UInt8) {
        #expect(throws: WebSocketProtocolError.reservedBitsSet(bits)) {
            try decode(frameBytes(reservedBits: bits, opcode: 0x1, payload: []))
        }
    }

    @Test func rsv1AllowedWhenClaimedButNotOnControlOrContinuation() throws {
        let decoder = FrameDecoder(role: .client, allowedReservedBits: .rsv1)
        var buffer = ByteBuffer(bytes: frameBytes(reservedBits: 0x40, opcode: 0x1, payload: [0x00]))
        #expect(try decoder.decode(from: &buffer)?.rsv1 == true)
        buffer = ByteBuffer(bytes: frameBytes(reservedBits: 0x40, opcode: 0x9, payload: []))
        #expect(throws: WebSocketProtocolError.compressedFrameNotFirst(.ping)) { try decoder.decode(from: &buffer) }
        buffer = ByteBuffer(bytes: frameBytes(reservedBits: 0x40, opcode: 0x0, payload: []))
        #expect(throws: WebSocketProtocolError.compressedFrameNotFirst(.continuation)) { try decoder.decode(from: &buffer) }
        buffer = ByteBuffer(bytes: frameBytes(reservedBits: 0x20, opcode: 0x1, payload: []))
        #expect(throws: WebSocketProtocolError.reservedBitsSet(0x20)) { try decoder.decode(from: &buffer) }
    }

    @Test(arguments: [UInt8(0x3), 0x4, 0x5, 0x6, 0x7, 0xB, 0xC, 0xD, 0xE, 0xF])
    func reservedOpcodes(opcode: UInt8) {
        #expect(throws: WebSocketProtocolError.reservedOpcode(opcode)) {
            try decode(frameBytes(opcode: opcode, payload: []))
        }
    }

    @Test func fragmentedControlFrame() {
        #expect(throws: WebSocketProtocolError.fragmentedControlFrame(.ping)) {
            try decode(frameBytes(fin: false, opcode: 0x9, payload: []))
        }
    }

    @Test func oversizedControlFrameFailsOnTheHeader() {
        // 126 → a 16-bit length follows; only the two header bytes are present.
        #expect(throws: WebSocketProtocolError.controlFrameTooLong(.close, length: 126)) {
            try decode([0x88, 0x7E])
        }
    }

    @Test func unmaskedClientFrameToServer() {
        #expect(throws: WebSocketProtocolError.unmaskedClientFrame) {
            try decode(frameBytes(opcode: 0x1, payload: utf8("Hello")), role: .server)
        }
    }

    @Test func maskedServerFrameToClient() {
        #expect(throws: WebSocketProtocolError.maskedServerFrame) {
            try decode(clientFrame(opcode: 0x1, payload: utf8("Hello")), role: .client)
        }
    }

    @Test func sixtyFourBitLengthWithTopBitSet() {
        #expect(throws: WebSocketProtocolError.lengthTopBitSet(0x8000_0000_0000_0001)) {
            try decode([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0x01])
        }
    }

    @Test func frameAboveMaxSizeFailsBeforeThePayloadArrives() {
        // Header declares 1 MiB + 1; no payload bytes are present at all.
        let declared = (1 << 20) + 1
        let header: [UInt8] = [0x82, 0x7F] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: declared >> ($0 * 8)) }
        #expect(throws: WebSocketProtocolError.frameTooLarge(length: UInt64(declared), limit: 1 << 20)) {
            try decode(header)
        }
        #expect(WebSocketProtocolError.frameTooLarge(length: 1, limit: 0).closeCode == .messageTooBig)
    }

    @Test func messageBudgetFailsBeforeThePayloadArrives() {
        var buffer = ByteBuffer(bytes: [0x00, 0x7E, 0x01, 0x00])  // continuation declaring 256 bytes
        #expect(throws: WebSocketProtocolError.messageTooLarge(length: 1256, limit: 1200)) {
            try FrameDecoder(role: .client).decode(from: &buffer, messageBytesReceived: 1000, maxMessageSize: 1200)
        }
    }

    @Test func errorsMapToCloseCodes() {
        #expect(WebSocketProtocolError.reservedOpcode(3).closeCode == .protocolError)
        #expect(WebSocketProtocolError.invalidUTF8(offset: 0).closeCode == .invalidPayloadData)
        #expect(WebSocketProtocolError.messageTooLarge(length: 2, limit: 1).closeCode == .messageTooBig)
        #expect(WebSocketProtocolError.reservedOpcode(0xB).description == "reserved opcode 0xB")
    }
}
