import NIOCore
import WebSocket

/// `/broadcast`: every text message goes to every `/broadcast` client, the sender included
/// (wsbench's semantics). Encoded once, a message makes one hop to each other event loop,
/// which writes it to its members.
struct BroadcastHandler: WebSocketEventLoopHandler {
    /// The members of one event loop, touched only on that loop.
    typealias LoopMembers = NIOLoopBoundBox<[ObjectIdentifier: WebSocketOutbound]>

    private let loops: [LoopMembers]

    init(group: any EventLoopGroup) {
        loops = group.makeIterator().map { LoopMembers.makeBoxSendingValue([:], eventLoop: $0) }
    }

    private func members(of loop: any EventLoop) -> LoopMembers? {
        loops.first { $0.eventLoop === loop }
    }

    func webSocketOpened(_ outbound: WebSocketOutbound) {
        members(of: outbound.eventLoop)?.value[ObjectIdentifier(outbound)] = outbound
    }

    func webSocketClosed(_ outbound: WebSocketOutbound, status: WebSocketCloseStatus) {
        members(of: outbound.eventLoop)?.value[ObjectIdentifier(outbound)] = nil
    }

    func webSocket(_ outbound: WebSocketOutbound, received message: WebSocketMessage) {
        guard message.kind == .text else { return }
        guard let frame = try? WebSocketPreparedMessage(message) else { return }  // throws only for a compressor, none given
        for members in loops {
            if members.eventLoop === outbound.eventLoop {
                Self.write(frame, to: members)
            } else {
                members.eventLoop.execute { Self.write(frame, to: members) }
            }
        }
    }

    private static func write(_ frame: WebSocketPreparedMessage, to members: LoopMembers) {
        for outbound in members.value.values {
            outbound.write(frame)
        }
    }
}
