import NIOCore
import NIOEmbedded
import Testing

@testable import StateSyncServer

/// `serve --inject-latency`: every outbound write, flush and close leaves
/// one latency after it was made, in the order made.
@Suite(.timeLimit(.minutes(1)))
struct InjectedLatencyHandlerTests {
    private static func channel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(InjectedLatencyHandler(latency: .milliseconds(300)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        return channel
    }

    private static func written(_ channel: EmbeddedChannel) throws -> [String] {
        var texts: [String] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { texts.append(String(buffer: buffer)) }
        return texts
    }

    @Test func writesLeaveOneLatencyLaterInOrder() throws {
        let channel = try Self.channel()
        channel.writeAndFlush(ByteBuffer(string: "first"), promise: nil)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(100))
        channel.writeAndFlush(ByteBuffer(string: "second"), promise: nil)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(199))
        #expect(try Self.written(channel) == [])
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(try Self.written(channel) == ["first"])
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(100))
        #expect(try Self.written(channel) == ["second"])
        channel.close(promise: nil)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(300))
        #expect(!channel.isActive)
    }

    @Test func aCloseWaitsForTheWritesBeforeIt() throws {
        let channel = try Self.channel()
        channel.writeAndFlush(ByteBuffer(string: "goodbye"), promise: nil)
        channel.close(promise: nil)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(299))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(try Self.written(channel) == ["goodbye"])
        #expect(!channel.isActive)
    }
}
