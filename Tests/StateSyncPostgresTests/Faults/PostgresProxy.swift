import NIOCore
import NIOPosix
import Synchronization

/// A TCP proxy between one node and PostgreSQL, so that a fault test can
/// cut that node off while its clients stay connected, or move it to
/// another server (a failover), without touching the node.
///
/// ```swift
/// let proxy = try await PostgresProxy.start(to: postgres.port)   // the node's --postgres names proxy.port
/// proxy.cut()    // a partition: nothing passes, nothing is refused
/// proxy.heal()   // the connections of the cut end; new ones pass
/// ```
final class PostgresProxy: Sendable {
    /// What passes, and what each open connection is.
    private struct State {
        var target: Int
        var isCut = false
        var connections: [ObjectIdentifier: any Channel] = [:]
    }

    /// The loopback port the node connects to.
    let port: Int
    private let server: any Channel
    private let state: Mutex<State>

    private init(server: any Channel, target: Int) throws {
        self.server = server
        port = try server.localAddress?.port ?? { throw ChannelError.unknownLocalAddress }()
        state = Mutex(State(target: target))
    }

    /// Listens on a free loopback port and forwards to `targetPort`.
    static func start(to targetPort: Int) async throws -> PostgresProxy {
        let pending = PendingProxy()
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                guard let proxy = pending.proxy.withLock({ $0 }) else { return channel.close() }
                return proxy.accepted(channel)
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let proxy = try PostgresProxy(server: server, target: targetPort)
        pending.proxy.withLock { $0 = proxy }
        return proxy
    }

    /// A partition: from now on no byte passes either way on any
    /// connection, and new connections are accepted but lead nowhere; the
    /// node hears nothing (no reset), as across a network that drops packets.
    func cut() {
        state.withLock { $0.isCut = true }
    }

    /// Ends the partition: the connections it held end (their sessions
    /// ended on the other side meanwhile), and new ones pass.
    func heal() {
        let held = state.withLock { state in
            state.isCut = false
            defer { state.connections = [:] }
            return Array(state.connections.values)
        }
        for channel in held { channel.close(promise: nil) }
    }

    /// Sends new connections to `targetPort` and ends the open ones, as a
    /// failover's new primary behind the same address.
    func retarget(_ targetPort: Int) {
        state.withLock { $0.target = targetPort }
        heal()
    }

    /// Stops listening and ends every connection.
    func close() async {
        heal()
        try? await server.close()
    }

    /// Whether bytes may pass now.
    fileprivate var passes: Bool { state.withLock { !$0.isCut } }

    /// A node's new connection: joined to a new one to the target, unless cut.
    private func accepted(_ inbound: any Channel) -> EventLoopFuture<Void> {
        let (target, isCut) = state.withLock { state in
            state.connections[ObjectIdentifier(inbound)] = inbound
            return (state.target, state.isCut)
        }
        let inboundRelay = Relay(proxy: self)
        let added = inbound.pipeline.addHandler(inboundRelay)
        guard !isCut else { return added }
        ClientBootstrap(group: inbound.eventLoop)
            .channelInitializer { outbound in outbound.pipeline.addHandler(Relay(proxy: self, partner: inbound)) }
            .connect(host: "127.0.0.1", port: target)
            .whenComplete { result in
                switch result {
                case .success(let outbound):
                    inboundRelay.attach(outbound)
                    outbound.closeFuture.whenComplete { _ in inbound.close(promise: nil) }
                    inbound.closeFuture.whenComplete { _ in outbound.close(promise: nil) }
                case .failure:
                    inbound.close(promise: nil)
                }
            }
        inbound.closeFuture.whenComplete { _ in
            _ = self.state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(inbound)) }
        }
        return added
    }
}

/// The proxy a server's initializer reaches, set once it is bound.
private final class PendingProxy: Sendable {
    let proxy = Mutex<PostgresProxy?>(nil)
}

/// One side of a proxied connection: writes what it reads to its partner
/// (held until the partner is connected), unless the proxy is cut (then
/// the bytes are dropped).
private final class Relay: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: `partner` and `held` are used on the connection's event loop only.
    typealias InboundIn = ByteBuffer

    private let proxy: PostgresProxy
    private var partner: (any Channel)?
    private var held: [ByteBuffer] = []

    init(proxy: PostgresProxy, partner: (any Channel)? = nil) {
        self.proxy = proxy
        self.partner = partner
    }

    /// The other side is connected: what arrived meanwhile goes to it.
    func attach(_ partner: any Channel) {
        self.partner = partner
        for bytes in held { partner.write(bytes, promise: nil) }
        partner.flush()
        held = []
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard proxy.passes else { return }
        guard let partner else { return held.append(unwrapInboundIn(data)) }
        partner.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
