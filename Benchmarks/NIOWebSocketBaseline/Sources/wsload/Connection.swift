import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// Where the load goes: `ws://HOST[:PORT][/PATH]`.
struct Target: Sendable {
    var host: String
    var port: Int
    var path: String

    init(url: String) throws {
        guard url.hasPrefix("ws://") else { throw LoadError.badURL(url) }
        let rest = url.dropFirst("ws://".count)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[rest.startIndex..<slash]
        let parts = authority.split(separator: ":")
        guard let host = parts.first, !host.isEmpty, parts.count <= 2 else { throw LoadError.badURL(url) }
        guard let port = parts.count > 1 ? Int(parts[1]) : 80 else { throw LoadError.badURL(url) }
        self.host = String(host)
        self.port = port
        self.path = slash == rest.endIndex ? "/" : String(rest[slash...])
    }
}

/// An upgraded load connection.
struct Connection: Sendable {
    let channel: any Channel
    let handler: WSClientHandler

    /// Connects and upgrades with `NIOWebSocketClientUpgrader`, on the next loop of `group`.
    static func open(group: any EventLoopGroup, stats: [LoopStats], config: LoadConfig, target: Target) async throws -> Connection {
        let loop = group.next()
        guard let loopStats = stats.first(where: { $0.eventLoop === loop }) else {
            preconditionFailure("event loop outside the group")
        }
        let upgraded = loop.makePromise(of: WSClientHandler.self)
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(.seconds(10))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                let requester = UpgradeRequestHandler(target: target, upgraded: upgraded)
                let upgrader = NIOWebSocketClientUpgrader(
                    maxFrameSize: 1 << 20,
                    automaticErrorHandling: true,
                    upgradePipelineHandler: { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            let handler = WSClientHandler(config: config, stats: loopStats)
                            try channel.pipeline.syncOperations.addHandler(handler)
                            upgraded.succeed(handler)
                        }
                    }
                )
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(
                        leftOverBytesStrategy: .forwardBytes,
                        withClientUpgrade: (
                            upgraders: [upgrader],
                            completionHandler: { context in
                                // Upgraded: the HTTP-typed handler leaves the pipeline.
                                context.pipeline.syncOperations.removeHandler(requester, promise: nil)
                            }
                        )
                    )
                    try channel.pipeline.syncOperations.addHandler(requester)
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: target.host, port: target.port).get()
        } catch {
            upgraded.fail(error)  // never leave the promise dangling
            throw error
        }
        let timeout = loop.scheduleTask(in: .seconds(15)) {
            upgraded.fail(LoadError.upgradeTimeout)
            channel.close(promise: nil)
        }
        do {
            let handler = try await upgraded.futureResult.get()
            timeout.cancel()
            return Connection(channel: channel, handler: handler)
        } catch {
            timeout.cancel()
            channel.close(promise: nil)
            throw error
        }
    }
}
