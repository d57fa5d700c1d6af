import NIOCore
import Testing
import WebSocket

@Suite struct FrameEncoderTests {
    @Test func serverWritesUnmaskedHello() {
        var encoder = FrameEncoder(role: .server)
        let bytes = encoder.encode(WebSocketFrame(opcode: .text, payload: ByteBuffer(string: "Hello")))
        #expect(bytes.bytes == [0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f])
    }

    @Test func serverIgnoresAMaskingKey() {
        var encoder = FrameEncoder(role: .server)
        let frame = WebSocketFrame(opcode: .text, maskingKey: WebSocketMaskingKey(1, 2, 3, 4), payload: ByteBuffer(string: "Hi"))
        #expect(encoder.encode(frame).bytes == [0x81, 0x02, 0x48, 0x69])
    }

    @Test func clientWritesMaskedHelloWithTheFramesKey() {
        var encoder = FrameEncoder(role: .client)
        let frame = WebSocketFrame(
            opcode: .text, maskingKey: WebSocketMaskingKey(0x37, 0xfa, 0x21, 0x3d), payload: ByteBuffer(string: "Hello")
        )
        #expect(encoder.encode(frame).bytes == [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
    }

    @Test func clientDrawsAFreshKeyPerFrame() throws {
        var encoder = FrameEncoder(role: .client, keys: WebSocketMaskingKeyGenerator(seed: 42))
        let frame = WebSocketFrame(opcode: .binary, payload: ByteBuffer(bytes: [1, 2, 3]))
        var first = encoder.encode(frame)
        var second = encoder.encode(frame)
        #expect(first.getBytes(at: 2, length: 4) != second.getBytes(at: 2, length: 4))
        let decoder = FrameDecoder(role: .server)
        #expect(try decoder.decode(from: &first)?.payload.bytes == [1, 2, 3])
        #expect(try decoder.decode(from: &second)?.payload.bytes == [1, 2, 3])
    }

    @Test(arguments: [(0, 2), (125, 2), (126, 4), (65535, 4), (65536, 10)])
    func shortestLengthEncoding(length: Int, headerLength: Int) {
        var encoder = FrameEncoder(role: .server)
        let bytes = encoder.encode(WebSocketFrame(opcode: .binary, payload: ByteBuffer(repeating: 0xAB, count: length)))
        #expect(bytes.readableBytes == headerLength + length)
    }

    @Test func headerBitsRoundTrip() throws {
        var encoder = FrameEncoder(role: .client)
        let frame = WebSocketFrame(fin: false, rsv1: true, opcode: .text, payload: ByteBuffer(string: "x"))
        var bytes = encoder.encode(frame)
        let decoded = try #require(
            try FrameDecoder(role: .server, allowedReservedBits: .rsv1).decode(from: &bytes)
        )
        #expect(!decoded.fin && decoded.rsv1 && !decoded.rsv2 && decoded.opcode == .text)
        #expect(decoded.payload.bytes == utf8("x"))
    }
}
