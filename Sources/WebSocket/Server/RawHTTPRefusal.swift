import NIOCore
import NIOHTTP1

/// Writes a refusal as raw HTTP/1.1 bytes below the HTTP codec and closes the connection once written, for
/// stages that answer before a decoded request: an oversized head (431), a request too late (408).
enum RawHTTPRefusal {
    static func writeAndClose(_ rejection: WebSocketHandshakeRejection, context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: 256)
        let head = rejection.responseHead()
        buffer.writeString("HTTP/1.1 \(head.status.code) \(head.status.reasonPhrase)\r\n")
        for (name, value) in head.headers {
            buffer.writeString("\(name): \(value)\r\n")
        }
        buffer.writeString("\r\n\(rejection.body)")
        context.writeAndFlush(NIOAny(buffer)).whenComplete { [channel = context.channel] _ in
            channel.close(promise: nil)
        }
    }
}
