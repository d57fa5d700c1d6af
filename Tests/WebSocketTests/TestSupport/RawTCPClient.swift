import NIOCore
import NIOPosix

/// A test client that writes raw bytes to a loopback server and collects
/// everything the server sends until it closes the connection.
final class RawTCPClient: Sendable {
    private final class Collector: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        var received = ByteBuffer()
        let done: EventLoopPromise<ByteBuffer>
        init(done: EventLoopPromise<ByteBuffer>) { self.done = done }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            received.writeBuffer(&bytes)
        }
        func channelInactive(context: ChannelHandlerContext) {
            done.succeed(received)
        }
        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }

    let channel: any Channel
    private let done: EventLoopFuture<ByteBuffer>

    init(port: Int) async throws {
        let group = MultiThreadedEventLoopGroup.singleton
        let promise = group.next().makePromise(of: ByteBuffer.self)
        done = promise.futureResult
        channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(done: promise))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
    }

    func send(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes))
    }

    func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    /// Everything received until the server closed the connection.
    func receiveUntilClosed() async throws -> ByteBuffer {
        try await done.get()
    }

    func close() async throws {
        try await channel.close()
    }
}

/// A valid upgrade request for `path`.
func upgradeRequest(path: String = "/echo", version: String = "13", extraHeaders: String = "") -> String {
    "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: \(version)\r\n\(extraHeaders)\r\n"
}
