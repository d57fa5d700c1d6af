import NIOCore
import NIOEmbedded
import Synchronization
import Testing
@testable import WebSocket

/// Counts `read()` calls that reach the head of the pipeline.
final class ReadCounter: ChannelOutboundHandler, Sendable {
    typealias OutboundIn = ByteBuffer
    private let reads = Mutex(0)
    var count: Int { reads.withLock { $0 } }
    func read(context: ChannelHandlerContext) {
        reads.withLock { $0 += 1 }
        context.read()
    }
}

@Suite(.timeLimit(.minutes(1))) struct WebSocketBackpressureTests {
    static func makeChannel(
        options: WebSocketChannelOptions
    ) async throws -> (NIOAsyncTestingChannel, ReadCounter, WebSocketOutbound, WebSocketInboundMessages) {
        let channel = NIOAsyncTestingChannel()
        let reads = ReadCounter()
        let anchor = UpgradeAnchor()
        try await channel.pipeline.addHandlers([reads, anchor])
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1))
        let (outbound, inbound) = try await channel.testingEventLoop.executeInContext {
            let connection = try WebSocketChannelHandler<TaskDelivery>.install(
                on: channel, after: anchor, role: .server, configuration: .init(compression: nil), options: options,
                subprotocol: nil, compression: nil)
            return (connection.outbound, connection.inbound)
        }
        return (channel, reads, outbound, inbound)
    }

    @Test func slowConsumerStopsSocketReadsUntilItCatchesUp() async throws {
        let (channel, reads, _, inbound) = try await Self.makeChannel(
            options: .init(inboundHighWatermark: 4, inboundLowWatermark: 1))
        for index in 0..<6 {
            try await channel.writeInbound(ByteBuffer(bytes: clientFrame(opcode: 0x2, payload: [UInt8(index)])))
        }
        let before = reads.count
        channel.read()
        await channel.testingEventLoop.run()
        #expect(reads.count == before, "read() reached the socket although the consumer is 6 messages behind")

        var iterator = inbound.makeAsyncIterator()
        for index in 0..<6 {
            #expect(await iterator.next() == .binary(ByteBuffer(bytes: [UInt8(index)])))
        }
        await channel.testingEventLoop.run()
        #expect(reads.count == before + 1, "the held-back read() was not released")
    }

    @Test func aConsumerThatStopsIteratingReleasesHeldReads() async throws {
        let (channel, reads, _, inbound) = try await Self.makeChannel(
            options: .init(inboundHighWatermark: 4, inboundLowWatermark: 1))
        for index in 0..<6 {
            try await channel.writeInbound(ByteBuffer(bytes: clientFrame(opcode: 0x2, payload: [UInt8(index)])))
        }
        let before = reads.count
        channel.read()
        await channel.testingEventLoop.run()
        #expect(reads.count == before)

        do {
            var iterator = inbound.makeAsyncIterator()
            #expect(await iterator.next() == .binary(ByteBuffer(bytes: [0])))
        }  // the iterator goes away five messages behind
        await channel.testingEventLoop.run()
        #expect(reads.count == before + 1, "the held-back read was not released when the consumer left")
    }

    @Test func fastConsumerDoesNotHoldReads() async throws {
        let (channel, reads, _, _) = try await Self.makeChannel(options: .init(inboundHighWatermark: 4, inboundLowWatermark: 1))
        try await channel.writeInbound(ByteBuffer(bytes: clientFrame(opcode: 0x2, payload: [1])))
        let before = reads.count
        channel.read()
        await channel.testingEventLoop.run()
        #expect(reads.count == before + 1)
    }

    @Test func writerWaitsWhileUnwritable() async throws {
        let (channel, _, outbound, _) = try await Self.makeChannel(options: .init())
        channel.isWritable = false
        let done = Mutex(false)
        outbound.whenWritable().whenSuccess { done.withLock { $0 = true } }
        await channel.testingEventLoop.run()
        #expect(!done.withLock { $0 })
        #expect(!outbound.isWritable)

        channel.isWritable = true
        try await channel.testingEventLoop.executeInContext { channel.pipeline.fireChannelWritabilityChanged() }
        await channel.testingEventLoop.run()
        #expect(done.withLock { $0 })
    }

    @Test func waitersFailWhenTheConnectionCloses() async throws {
        let (channel, _, outbound, _) = try await Self.makeChannel(options: .init())
        channel.isWritable = false
        let future = outbound.whenWritable()
        await channel.testingEventLoop.run()
        try await channel.close()
        await #expect(throws: WebSocketSendError.self) { try await future.get() }
        await #expect(throws: WebSocketSendError.self) { try await outbound.send(text: "late") }
    }

    @Test func writesOutsideAReadBurstAreFlushedAtOnce() async throws {
        let (channel, _, outbound, _) = try await Self.makeChannel(options: .init())
        try await channel.testingEventLoop.executeInContext {
            outbound.write(.binary(ByteBuffer(repeating: 7, count: 1000)))
            #expect(outbound.bufferedOutboundBytesOnEventLoop == 0)  // the testing channel "writes" at once
        }
        let written = try #require(try await channel.readOutbound(as: ByteBuffer.self))
        #expect(written.readableBytes == 1004)
    }
}
