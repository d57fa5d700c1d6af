import NIOCore
import NIOEmbedded
import Testing
@testable import WebSocket

@Suite struct WebSocketChannelHandlerTests {
    @Test func deliversMessagesAndFlushesRepliesAtEndOfReadBurst() throws {
        let recorder = RecordingEventLoopHandler()
        let (channel, _) = try makeEmbeddedServer(handler: recorder)
        #expect(recorder.opened == 1)
        channel.pipeline.fireChannelRead(ByteBuffer(bytes: clientFrame(opcode: 0x1, payload: utf8("Hello"))))
        #expect(recorder.messages == [.text("Hello")])
        #expect(try channel.readAllOutbound().isEmpty)  // not flushed before read complete
        channel.pipeline.fireChannelReadComplete()
        #expect(try channel.readAllOutbound() == [0x81, 0x05] + utf8("Hello"))
    }

    @Test func reassemblesFramesSplitAcrossReads() throws {
        let recorder = RecordingEventLoopHandler(echo: false)
        let (channel, _) = try makeEmbeddedServer(handler: recorder)
        let bytes = clientFrame(fin: false, opcode: 0x2, payload: [1, 2, 3]) + clientFrame(opcode: 0x0, payload: [4])
        for byte in bytes {
            try channel.writeInbound(ByteBuffer(bytes: [byte]))
        }
        #expect(recorder.messages == [.binary(ByteBuffer(bytes: [1, 2, 3, 4]))])
    }

    @Test func answersPingWithPong() throws {
        let (channel, _) = try makeEmbeddedServer()
        try channel.writeInbound(ByteBuffer(bytes: clientFrame(opcode: 0x9, payload: [7, 8])))
        channel.pipeline.fireChannelReadComplete()
        #expect(try channel.readAllOutbound() == [0x8A, 0x02, 7, 8])
    }

    @Test func echoesCloseThenClosesTCP() throws {
        let recorder = RecordingEventLoopHandler()
        let (channel, outbound) = try makeEmbeddedServer(handler: recorder)
        try channel.writeInbound(ByteBuffer(bytes: clientFrame(opcode: 0x8, payload: [0x03, 0xE8] + utf8("bye"))))
        #expect(try channel.readAllOutbound() == [0x88, 0x02, 0x03, 0xE8])
        #expect(!channel.isActive)
        #expect(recorder.closed == [WebSocketCloseStatus(code: .normalClosure, reason: "bye")])
        #expect(outbound.closeStatus?.code == .normalClosure)
    }

    @Test(arguments: [
        (frameBytes(opcode: 0x1, payload: utf8("unmasked")), UInt16(1002)),
        (clientFrame(opcode: 0x3, payload: []), 1002),
        (clientFrame(opcode: 0x1, payload: [0xC3, 0x28]), 1007),
        (clientFrame(opcode: 0x2, payload: Array(repeating: 0, count: 200)), 1009),
    ] as [([UInt8], UInt16)])
    func protocolErrorsCloseWithTheirCode(bytes: [UInt8], code: UInt16) throws {
        let recorder = RecordingEventLoopHandler()
        let (channel, _) = try makeEmbeddedServer(
            configuration: .init(maxFrameSize: 100, maxMessageSize: 100, compression: nil), handler: recorder)
        try channel.writeInbound(ByteBuffer(bytes: bytes))
        let written = try channel.readAllOutbound()
        #expect(Array(written.prefix(4)) == [0x88, written[1], UInt8(code >> 8), UInt8(code & 0xFF)])
        #expect(!channel.isActive)
        #expect(recorder.closed.map(\.code) == [WebSocketCloseCode(code: code)])
        #expect(recorder.messages.isEmpty)
    }

    @Test func closeFromServerWaitsForPeerThenTimesOut() throws {
        let (channel, outbound) = try makeEmbeddedServer(configuration: .init(closeTimeout: .seconds(2), compression: nil))
        outbound.close(code: .goingAway, reason: "", promise: nil)
        #expect(try channel.readAllOutbound() == [0x88, 0x02, 0x03, 0xE9])
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive)
    }

    @Test func sendsKeepalivePingAndClosesIdleConnection() throws {
        let (channel, _) = try makeEmbeddedServer(
            configuration: .init(pingInterval: .seconds(10), idleTimeout: .seconds(25), compression: nil))
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        let ping = try channel.readAllOutbound()
        #expect(ping.first == 0x89)
        channel.embeddedEventLoop.advanceTime(by: .seconds(15))
        let written = try channel.readAllOutbound()
        #expect(written.contains(0x88))  // 1001 idle timeout close frame (after a second ping)
    }

    @Test func writesFromOutsideReadBurstFlushAtOnce() throws {
        let (channel, outbound) = try makeEmbeddedServer()
        outbound.write(.binary(ByteBuffer(bytes: [9])))
        #expect(try channel.readAllOutbound() == [0x82, 0x01, 9])
        let prepared = try WebSocketPreparedMessage(.text("hi"))
        outbound.write(prepared)
        #expect(try channel.readAllOutbound() == [0x81, 0x02] + utf8("hi"))
    }

    @Test func bytesAfterCloseAreIgnored() throws {
        let recorder = RecordingEventLoopHandler()
        let (channel, _) = try makeEmbeddedServer(handler: recorder)
        let bytes = clientFrame(opcode: 0x8, payload: [0x03, 0xE8]) + clientFrame(opcode: 0x1, payload: utf8("late"))
        try channel.writeInbound(ByteBuffer(bytes: bytes))
        #expect(recorder.messages.isEmpty)
    }
}
