import NIOCore
import NIOHTTP1

/// Sends the GET that `NIOHTTPClientUpgradeHandler` turns into an upgrade
/// request, and fails the connection when the server answers without upgrading.
///
/// `@unchecked Sendable`: the upgrade's completion handler (a `@Sendable`
/// closure) holds it only to remove it from the pipeline on the channel's loop,
/// where all of its callbacks run.
final class UpgradeRequestHandler: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let target: Target
    private let upgraded: EventLoopPromise<WSClientHandler>

    init(target: Target, upgraded: EventLoopPromise<WSClientHandler>) {
        self.target = target
        self.upgraded = upgraded
    }

    func channelActive(context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: "\(self.target.host):\(self.target.port)")
        headers.add(name: "Content-Length", value: "0")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: self.target.path, headers: headers)
        context.write(Self.wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(Self.wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Reached only when the server did not switch protocols.
        if case .head(let head) = Self.unwrapInboundIn(data) {
            self.upgraded.fail(LoadError.upgradeRefused(status: head.status.code))
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.upgraded.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.upgraded.fail(LoadError.closedDuringUpgrade)
        context.fireChannelInactive()
    }
}
