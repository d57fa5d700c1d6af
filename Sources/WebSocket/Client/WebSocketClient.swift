public import NIOCore
public import NIOHTTP1
import NIOPosix
public import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens client WebSocket connections (`ws://` and `wss://`).
///
/// ```swift
/// let connection = try await WebSocketClient.connect(url: "ws://127.0.0.1:8080/chat", subprotocols: ["chat.v1"])
/// try await connection.outbound.send(text: "hello")
/// for await message in connection.inbound { print(message) }
/// print(connection.closeStatus ?? "open")
/// ```
///
/// Each frame is masked with a fresh key (RFC 6455 §5.3); permessage-deflate is offered when
/// ``WebSocketConfiguration/compression`` is set.
public enum WebSocketClient {
    /// Connects, performs the opening handshake and returns the open connection. `subprotocols` are most
    /// preferred first; `tlsConfiguration` (for `wss://`) defaults to the system roots.
    ///
    /// - Throws: ``WebSocketHandshakeError`` (bad URL, rejected or invalid response) or ``WebSocketClientError``
    ///   (TCP/TLS failure, timeout).
    public static func connect(
        url: String,
        subprotocols: [String] = [],
        configuration: WebSocketConfiguration = .init(),
        options: WebSocketChannelOptions = .init(),
        tlsConfiguration: TLSConfiguration? = nil,
        headers: HTTPHeaders = [:],
        group: (any EventLoopGroup)? = nil
    ) async throws -> WebSocketConnection {
        try await open(
            url: url, subprotocols: subprotocols, configuration: configuration, options: options,
            tlsConfiguration: tlsConfiguration, headers: headers, group: group, eventLoopHandler: nil
        ) { outbound, inbound in
            WebSocketConnection(inbound: inbound!, outbound: outbound)
        }
    }

    /// Connects like ``connect(url:subprotocols:configuration:options:tlsConfiguration:headers:group:)`` but hands
    /// every message to `eventLoopHandler` on the connection's event loop: no task per connection, so one process
    /// can hold many thousands (a load generator). `webSocketOpened` runs on the event loop before this returns.
    public static func connect(
        url: String,
        subprotocols: [String] = [],
        configuration: WebSocketConfiguration = .init(),
        options: WebSocketChannelOptions = .init(),
        tlsConfiguration: TLSConfiguration? = nil,
        headers: HTTPHeaders = [:],
        group: (any EventLoopGroup)? = nil,
        eventLoopHandler: any WebSocketEventLoopHandler
    ) async throws -> WebSocketOutbound {
        try await open(
            url: url, subprotocols: subprotocols, configuration: configuration, options: options,
            tlsConfiguration: tlsConfiguration, headers: headers, group: group, eventLoopHandler: eventLoopHandler
        ) { outbound, _ in outbound }
    }

    private static func open<Result: Sendable>(
        url: String, subprotocols: [String], configuration: WebSocketConfiguration, options: WebSocketChannelOptions,
        tlsConfiguration: TLSConfiguration?, headers: HTTPHeaders, group: (any EventLoopGroup)?,
        eventLoopHandler: (any WebSocketEventLoopHandler)?,
        result: @escaping @Sendable (WebSocketOutbound, WebSocketInboundMessages?) -> Result
    ) async throws -> Result {
        let target = try WebSocketURL(url)
        let group = group ?? MultiThreadedEventLoopGroup.singleton
        let sslContext = try target.isSecure
            ? NIOSSLContext(configuration: tlsConfiguration ?? .makeClientConfiguration()) : nil
        let handshake = WebSocketClientHandshake(
            host: target.hostHeader, path: target.path, subprotocols: subprotocols, extraHeaders: headers,
            compression: configuration.compression)

        // The handshake starts on the channel's loop as soon as it connects: no hop through this task.
        let opened = connect(to: target, options: options, group: group).flatMap { channel in
            let promise = channel.eventLoop.makePromise(of: Result.self)
            let timeout = channel.eventLoop.scheduleTask(in: options.handshakeTimeout) {
                promise.fail(WebSocketClientError.handshakeTimedOut(
                    host: target.host, port: target.port, seconds: options.handshakeTimeout.nanoseconds / 1_000_000_000))
                channel.close(promise: nil)
            }
            promise.futureResult.whenComplete { _ in timeout.cancel() }
            do {
                try configure(channel, handshake: handshake, configuration: configuration, options: options,
                              sslContext: sslContext, serverName: target.host, eventLoopHandler: eventLoopHandler,
                              promise: promise, result: result)
            } catch {
                promise.fail(error)
                channel.close(promise: nil)
            }
            return promise.futureResult
        }
        do {
            return try await opened.get()
        } catch let error as WebSocketHandshakeError {
            throw error
        } catch let error as WebSocketClientError {
            throw error
        } catch {
            let stage = sslContext == nil ? "connection failed during the handshake" : "TLS or connection failure"
            throw WebSocketClientError.connectionFailed(host: target.host, port: target.port, reason: "\(stage) (\(error))")
        }
    }

    /// The TCP connection to `target`, its failure a ``WebSocketClientError/connectionFailed(host:port:reason:)``.
    static func connect(
        to target: WebSocketURL, options: WebSocketChannelOptions, group: any EventLoopGroup
    ) -> EventLoopFuture<any Channel> {
        var bootstrap = ClientBootstrap(group: group)
            .connectTimeout(options.handshakeTimeout)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
        if let localAddress = options.localAddress { bootstrap = bind(bootstrap, to: localAddress) }
        // An address needs no resolver: no lookup on its thread, no racing of address families.
        let connected = if let address = try? SocketAddress(ipAddress: target.host, port: target.port) {
            bootstrap.connect(to: address)
        } else {
            bootstrap.connect(host: target.host, port: target.port)
        }
        return connected.flatMapErrorThrowing { error in
            throw WebSocketClientError.connectionFailed(host: target.host, port: target.port, reason: reason(for: error))
        }
    }

    /// `bootstrap` binding `address` before it connects. On Linux an IPv4 address with port 0 takes its port at
    /// connect (`IP_BIND_ADDRESS_NO_PORT`), so connects from one address need no free-port search; a kernel
    /// without the option (before Linux 4.2) binds as usual.
    private static func bind(_ bootstrap: ClientBootstrap, to address: SocketAddress) -> ClientBootstrap {
        #if os(Linux)
        if case .v4 = address, address.port == 0 {
            return bootstrap.channelInitializer { channel in
                channel.setOption(bindAddressNoPort, value: 1)
                    .recover { _ in }
                    .flatMap { channel.bind(to: address) }
            }
        }
        #endif
        return bootstrap.bind(to: address)
    }

    #if os(Linux)
    /// `IP_BIND_ADDRESS_NO_PORT` of `<linux/in.h>`, which Glibc's headers do not export.
    static let bindAddressNoPort = ChannelOptions.Types.SocketOption(level: .ip, name: NIOBSDSocket.Option(rawValue: 24))
    #endif

    static func configure<Result: Sendable>(
        _ channel: any Channel, handshake: WebSocketClientHandshake,
        configuration: WebSocketConfiguration, options: WebSocketChannelOptions, sslContext: NIOSSLContext?, serverName: String,
        eventLoopHandler: (any WebSocketEventLoopHandler)?,
        promise: EventLoopPromise<Result>, result: @escaping @Sendable (WebSocketOutbound, WebSocketInboundMessages?) -> Result
    ) throws {
        let pipeline = channel.pipeline.syncOperations
        if let sslContext {
            let isAddress = (try? SocketAddress(ipAddress: serverName, port: 0)) != nil
            try pipeline.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: isAddress ? nil : serverName))
        }
        let encoder = HTTPRequestEncoder()
        let decoder = ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes))
        let handler = ClientHandshakeHandler(
            handshake: handshake, encoder: encoder, decoder: decoder, result: promise
        ) { channel, accepted, after in
            if let eventLoopHandler {
                let outbound = try WebSocketChannelHandler<EventLoopDelivery>.install(
                    on: channel, after: after, role: .client, configuration: configuration, options: options,
                    subprotocol: accepted.subprotocol, compression: accepted.compression) { _ in eventLoopHandler }
                return result(outbound, nil)
            }
            let connection = try WebSocketChannelHandler<TaskDelivery>.install(
                on: channel, after: after, role: .client, configuration: configuration, options: options,
                subprotocol: accepted.subprotocol, compression: accepted.compression)
            return result(connection.outbound, connection.inbound)
        }
        try pipeline.addHandlers([encoder, decoder, handler])
    }

    private static func reason(for error: any Error) -> String {
        if let error = error as? IOError, error.errnoCode == ECONNREFUSED {
            return "connection refused"
        }
        if let error = error as? NIOConnectionError, let first = error.connectionErrors.first {
            return reason(for: first.error)
        }
        if let error = error as? ChannelError, case .connectTimeout(let timeout) = error {
            return "connection timed out after \(timeout.nanoseconds / 1_000_000) ms"
        }
        return "cannot connect (\(error))"
    }
}
