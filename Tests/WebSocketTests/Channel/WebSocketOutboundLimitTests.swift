import NIOCore
import NIOEmbedded
import Testing
@testable import WebSocket

/// The transport's bounds on what a peer makes a connection queue: no read
/// while the channel is not writable, and a close with 1008 above
/// ``WebSocketChannelOptions/maxOutboundBytes``.
@Suite(.timeLimit(.minutes(1)))
struct WebSocketOutboundLimitTests {
    /// Counts the `read()` requests that reach the socket.
    final class ReadCounter: ChannelOutboundHandler {
        typealias OutboundIn = Any
        var reads = 0
        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    @Test func readsAreHeldBackWhileTheChannelIsNotWritable() throws {
        let channel = EmbeddedChannel()
        let counter = ReadCounter()
        try channel.pipeline.syncOperations.addHandler(counter)
        _ = try makeEmbeddedServer(channel: channel)
        let before = counter.reads
        channel.read()
        #expect(counter.reads == before + 1)

        channel.isWritable = false
        channel.pipeline.fireChannelWritabilityChanged()
        channel.read()
        #expect(counter.reads == before + 1, "read while answers wait for the socket")
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        #expect(counter.reads == before + 2, "the held-back read was not resumed")
    }

    @Test func aBacklogAboveTheCapIsClosedWith1008() throws {
        var options = WebSocketChannelOptions()
        options.maxOutboundBytes = 1_000
        let recorder = RecordingEventLoopHandler()
        let (channel, _) = try makeEmbeddedServer(handler: recorder, options: options)
        channel.isWritable = false   // the backlog is above the high-water mark
        let ping = clientFrame(opcode: 0x9, payload: [UInt8](repeating: 7, count: 100))
        // One read of 20 pings: their pongs (102 bytes each) wait for the end of the read.
        channel.pipeline.fireChannelRead(ByteBuffer(bytes: Array((0..<20).map { _ in ping }.joined())))
        let written = try channel.readAllOutbound()
        let pong: [UInt8] = [0x8A, 100] + [UInt8](repeating: 7, count: 100)
        let reason = utf8("more than 1000 bytes queued for this connection")
        // Ten pongs (1,020 bytes) pass the cap: then the close frame, and nothing for the other pings.
        #expect(written == Array((0..<10).map { _ in pong }.joined()) + [0x88, UInt8(2 + reason.count), 0x03, 0xF0] + reason)
        #expect(channel.isActive, "the close handshake goes on (the close timeout bounds it)")

        channel.pipeline.fireChannelRead(ByteBuffer(bytes: clientFrame(opcode: 0x8, payload: [0x03, 0xF0])))
        #expect(!channel.isActive)
        #expect(recorder.messages.isEmpty)
    }
}
