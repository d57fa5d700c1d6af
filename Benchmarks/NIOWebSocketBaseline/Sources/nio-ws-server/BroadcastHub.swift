import NIOCore
import NIOWebSocket

/// The `/broadcast` channels of one event loop.
///
/// `@unchecked Sendable`: `channels` is only read or written on `eventLoop`
/// (register, unregister and writeToAll all run there), which serialises access.
final class LoopMembers: @unchecked Sendable {
    let eventLoop: any EventLoop
    var channels: [ObjectIdentifier: any Channel] = [:]

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// One write per client, flushed per message. All writes share the payload
    /// `ByteBuffer` (copy-on-write), so the fan-out does not copy it.
    func writeToAll(_ frame: WebSocketFrame) {
        self.eventLoop.assertInEventLoop()
        for channel in self.channels.values {
            channel.writeAndFlush(frame, promise: nil)
        }
    }
}

/// The `/broadcast` channels, grouped by event loop: a broadcast hops once to
/// each loop, not once per channel, and writes there.
final class BroadcastHub: Sendable {
    private let members: [LoopMembers]

    init(group: any EventLoopGroup) {
        self.members = group.makeIterator().map { LoopMembers(eventLoop: $0) }
    }

    private func members(for loop: any EventLoop) -> LoopMembers {
        for members in self.members where members.eventLoop === loop { return members }
        preconditionFailure("channel on an event loop outside the group")
    }

    /// Called on `channel.eventLoop`.
    func register(_ channel: any Channel) {
        self.members(for: channel.eventLoop).channels[ObjectIdentifier(channel)] = channel
    }

    /// Called on `channel.eventLoop`.
    func unregister(_ channel: any Channel) {
        self.members(for: channel.eventLoop).channels.removeValue(forKey: ObjectIdentifier(channel))
    }

    func broadcast(_ frame: WebSocketFrame) {
        for members in self.members {
            if members.eventLoop.inEventLoop {
                members.writeToAll(frame)
            } else {
                members.eventLoop.execute { members.writeToAll(frame) }
            }
        }
    }
}
