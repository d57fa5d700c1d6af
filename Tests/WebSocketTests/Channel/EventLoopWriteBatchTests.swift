import NIOCore
import NIOEmbedded
import Testing
@testable import WebSocket

/// Writes made inside a loop's batch are flushed once per connection when
/// the outermost batch ends; writes outside one flush at once.
@Suite struct EventLoopWriteBatchTests {
    /// Counts the flushes that reach it from the WebSocket handler above it.
    private final class FlushCounter: ChannelOutboundHandler, @unchecked Sendable {  // used on the embedded loop only
        typealias OutboundIn = ByteBuffer
        var flushes = 0

        func flush(context: ChannelHandlerContext) {
            flushes += 1
            context.flush()
        }
    }

    /// A server connection on `loop` whose flushes are counted.
    private static func connection(on loop: EmbeddedEventLoop) throws -> (EmbeddedChannel, WebSocketOutbound, FlushCounter) {
        let counter = FlushCounter()
        let channel = EmbeddedChannel(handler: counter, loop: loop)
        let (_, outbound) = try makeEmbeddedServer(handler: RecordingEventLoopHandler(echo: false), channel: channel)
        return (channel, outbound, counter)
    }

    private static let hello = WebSocketMessage.text("hello")
    private static let helloFrame: [UInt8] = [0x81, 0x05] + utf8("hello")

    @Test func writesInsideABatchAreFlushedOnceAtItsEnd() throws {
        let loop = EmbeddedEventLoop()
        let (channel, outbound, counter) = try Self.connection(on: loop)
        let batch = EventLoopWriteBatch.on(loop)
        try batch.flushingOnce { () throws in
            outbound.write(Self.hello)
            outbound.write(Self.hello)
            #expect(batch.isOpen)
            #expect(try channel.readAllOutbound().isEmpty, "nothing flushed inside the batch")
        }
        #expect(!batch.isOpen)
        #expect(counter.flushes == 1)
        #expect(try channel.readAllOutbound() == Self.helloFrame + Self.helloFrame)
    }

    @Test func writesOutsideABatchFlushAtOnce() throws {
        let loop = EmbeddedEventLoop()
        let (channel, outbound, counter) = try Self.connection(on: loop)
        outbound.write(Self.hello)
        #expect(try channel.readAllOutbound() == Self.helloFrame)
        outbound.write(Self.hello)
        #expect(counter.flushes == 2)
        #expect(try channel.readAllOutbound() == Self.helloFrame)
    }

    @Test func nestedBatchesFlushWhenTheOutermostEnds() throws {
        let loop = EmbeddedEventLoop()
        let (channel, outbound, counter) = try Self.connection(on: loop)
        let batch = EventLoopWriteBatch.on(loop)
        try batch.flushingOnce { () throws in
            batch.flushingOnce { outbound.write(Self.hello) }
            #expect(counter.flushes == 0)
            #expect(try channel.readAllOutbound().isEmpty)
            outbound.write(Self.hello)
        }
        #expect(counter.flushes == 1)
        #expect(try channel.readAllOutbound() == Self.helloFrame + Self.helloFrame)
    }

    @Test func everyConnectionWrittenInTheBatchIsFlushedAndTheNextBatchStartsEmpty() throws {
        let loop = EmbeddedEventLoop()
        let (first, firstOutbound, firstCounter) = try Self.connection(on: loop)
        let (second, secondOutbound, secondCounter) = try Self.connection(on: loop)
        let batch = EventLoopWriteBatch.on(loop)
        batch.flushingOnce {
            firstOutbound.write(Self.hello)
            secondOutbound.write(Self.hello)
            firstOutbound.write(Self.hello)
        }
        #expect((firstCounter.flushes, secondCounter.flushes) == (1, 1))
        #expect(try first.readAllOutbound() == Self.helloFrame + Self.helloFrame)
        #expect(try second.readAllOutbound() == Self.helloFrame)
        batch.flushingOnce { secondOutbound.write(Self.hello) }
        #expect((firstCounter.flushes, secondCounter.flushes) == (1, 2), "only the connection written is flushed")
        #expect(try second.readAllOutbound() == Self.helloFrame)
    }

    @Test func aConnectionClosedInsideTheBatchIsLeftAlone() throws {
        let loop = EmbeddedEventLoop()
        let (closing, closingOutbound, _) = try Self.connection(on: loop)
        let (open, openOutbound, _) = try Self.connection(on: loop)
        try EventLoopWriteBatch.on(loop).flushingOnce { () throws in
            closingOutbound.write(Self.hello)
            openOutbound.write(Self.hello)
            try closing.close().wait()
        }
        #expect(try open.readAllOutbound() == Self.helloFrame)
    }

    @Test func aBatchDoesNotKeepItsLoopAlive() {
        weak var gone: EmbeddedEventLoop?
        do {
            let loop = EmbeddedEventLoop()
            gone = loop
            EventLoopWriteBatch.on(loop).flushingOnce {}
        }
        #expect(gone == nil)
    }

    @Test func eachLoopHasABatchOfItsOwn() {
        let (one, other) = (EmbeddedEventLoop(), EmbeddedEventLoop())
        #expect(EventLoopWriteBatch.on(one) === EventLoopWriteBatch.on(one))
        #expect(EventLoopWriteBatch.on(one) !== EventLoopWriteBatch.on(other))
    }
}
