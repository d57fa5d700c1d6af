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
/// Frames are masked with a fresh key each (RFC 6455 §5.3); permessage-deflate
/// is offered when ``WebSocketConfiguration/compression`` is set.
public enum WebSocketClient {
    /// Connects, performs the opening handshake and returns the open connection.
    ///
    /// - Parameters:
    ///   - url: `ws://host[:port]/path` or `wss://…`.
    ///   - subprotocols: offered subprotocols, most preferred first.
    ///   - configuration: limits, timers, compression offer.
    ///   - options: buffering and the handshake timeout.
    ///   - tlsConfiguration: for `wss://`; default trusts the system roots.
    ///   - headers: extra request headers (authorization, `Origin`).
    ///   - group: the event loops to use; default NIO's shared singleton group.
    /// - Throws: ``WebSocketHandshakeError`` (bad URL, rejected or invalid
    ///   response) or ``WebSocketClientError`` (TCP/TLS failure, timeout).
    public static func connect(
        url: String,
        subprotocols: [String] = [],
        configuration: WebSocketConfiguration = .init(),
        options: WebSocketChannelOptions = .init(),
        tlsConfiguration: TLSConfiguration? = nil,
        headers: HTTPHeaders = [:],
        group: (any EventLoopGroup)? = nil
    ) async throws -> WebSocketConnection {
        let target = try WebSocketURL(url)
        let group = group ?? MultiThreadedEventLoopGroup.singleton
        let sslContext = try target.isSecure
            ? NIOSSLContext(configuration: tlsConfiguration ?? .makeClientConfiguration()) : nil
        let handshake = WebSocketClientHandshake(
            host: target.hostHeader, path: target.path, subprotocols: subprotocols, extraHeaders: headers,
            compression: configuration.compression)

        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(options.handshakeTimeout)
                .channelOption(.tcpOption(.tcp_nodelay), value: 1)
                .connect(host: target.host, port: target.port)
                .get()
        } catch {
            throw WebSocketClientError.connectionFailed(host: target.host, port: target.port, reason: reason(for: error))
        }
        let promise = channel.eventLoop.makePromise(of: WebSocketConnection.self)
        let timeout = channel.eventLoop.scheduleTask(in: options.handshakeTimeout) {
            promise.fail(WebSocketClientError.handshakeTimedOut(
                host: target.host, port: target.port, seconds: options.handshakeTimeout.nanoseconds / 1_000_000_000))
            channel.close(promise: nil)
        }
        channel.eventLoop.execute {
            do {
                try configure(channel, handshake: handshake, configuration: configuration, options: options,
                              sslContext: sslContext, serverName: target.host, promise: promise)
            } catch {
                promise.fail(error)
                channel.close(promise: nil)
            }
        }
        defer { timeout.cancel() }
        do {
            return try await promise.futureResult.get()
        } catch let error as WebSocketHandshakeError {
            throw error
        } catch let error as WebSocketClientError {
            throw error
        } catch {
            let stage = sslContext == nil ? "connection failed during the handshake" : "TLS or connection failure"
            throw WebSocketClientError.connectionFailed(host: target.host, port: target.port, reason: "\(stage) (\(error))")
        }
    }

    static func configure(
        _ channel: any Channel, handshake: WebSocketClientHandshake,
        configuration: WebSocketConfiguration, options: WebSocketChannelOptions, sslContext: NIOSSLContext?, serverName: String,
        promise: EventLoopPromise<WebSocketConnection>
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
            let (outbound, inbound) = try WebSocketChannelHandler.install(
                on: channel, after: after, role: .client, configuration: configuration, options: options,
                subprotocol: accepted.subprotocol, compression: accepted.compression, eventLoopHandler: nil)
            return WebSocketConnection(inbound: inbound!, outbound: outbound)
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
