import NIOCore
import NIOEmbedded
import Synchronization
@testable import WebSocket

/// A placeholder that stands where the HTTP stage would be, so the handler
/// can be installed "after" it as in a real upgrade.
final class UpgradeAnchor: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
}

/// Records event-loop callbacks; echoes messages when asked to.
final class RecordingEventLoopHandler: WebSocketEventLoopHandler {
    let echo: Bool
    private let state = Mutex<(opened: Int, messages: [WebSocketMessage], closed: [WebSocketCloseStatus])>((0, [], []))

    init(echo: Bool = true) { self.echo = echo }

    var opened: Int { state.withLock { $0.opened } }
    var messages: [WebSocketMessage] { state.withLock { $0.messages } }
    var closed: [WebSocketCloseStatus] { state.withLock { $0.closed } }

    func webSocketOpened(_ outbound: WebSocketOutbound) { state.withLock { $0.opened += 1 } }
    func webSocket(_ outbound: WebSocketOutbound, received message: WebSocketMessage) {
        state.withLock { $0.messages.append(message) }
        if echo { outbound.write(message) }
    }
    func webSocketClosed(_ outbound: WebSocketOutbound, status: WebSocketCloseStatus) {
        state.withLock { $0.closed.append(status) }
    }
}

/// An `EmbeddedChannel` with a server-side WebSocket handler installed.
func makeEmbeddedServer(
    configuration: WebSocketConfiguration = .init(compression: nil),
    handler: RecordingEventLoopHandler = RecordingEventLoopHandler(),
    options: WebSocketChannelOptions = .init(),
    channel: EmbeddedChannel = EmbeddedChannel()
) throws -> (EmbeddedChannel, WebSocketOutbound) {
    let anchor = UpgradeAnchor()
    try channel.pipeline.syncOperations.addHandler(anchor)
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    let outbound = try WebSocketChannelHandler<EventLoopDelivery>.install(
        on: channel, after: anchor, role: .server, configuration: configuration, options: options,
        subprotocol: nil, compression: nil) { _ in handler }
    return (channel, outbound)
}

extension EmbeddedChannel {
    /// All bytes written so far, concatenated.
    func readAllOutbound() throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let buffer = try readOutbound(as: ByteBuffer.self) {
            bytes += buffer.readableBytesView
        }
        return bytes
    }
}
