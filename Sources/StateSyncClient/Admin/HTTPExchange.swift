import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import WebSocket

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP/1.1 request and its whole response, on a connection of its own
/// to the host and port of a server's WebSocket URL (`ws://` → plain HTTP,
/// `wss://` → HTTPS): the server's HTTP API is on the same port as `/sync`.
struct HTTPExchange: Sendable {
    /// A response: its status code and body.
    struct Response: Sendable {
        var status: Int
        var body: [UInt8]
    }

    let target: WebSocketURL
    let tlsConfiguration: TLSConfiguration?
    /// How long connecting and the whole exchange may take.
    let timeout: Duration

    /// Sends `method path` with `headers` and returns the response.
    ///
    /// - Throws: ``StoreAdminError/unreachable`` when the server cannot be reached or the exchange fails.
    func send(_ method: HTTPMethod, _ path: String, headers: [(String, String)]) async throws(StoreAdminError) -> Response {
        do {
            return try await withThrowingTaskGroup(of: Response.self) { group in
                group.addTask { try await exchange(method, path, headers: headers) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw StoreAdminError.unreachable(target.description, reason: "no answer within \(timeout)")
                }
                defer { group.cancelAll() }
                guard let response = try await group.next() else { throw CancellationError() }
                return response
            }
        } catch let error as StoreAdminError {
            throw error
        } catch {
            throw .unreachable(target.description, reason: Self.reason(for: error))
        }
    }

    private func exchange(_ method: HTTPMethod, _ path: String, headers: [(String, String)]) async throws -> Response {
        let sslContext = try target.isSecure ? NIOSSLContext(configuration: tlsConfiguration ?? .makeClientConfiguration()) : nil
        let serverName = target.host
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000))
            .connect(host: target.host, port: target.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let sslContext {
                        let isAddress = (try? SocketAddress(ipAddress: serverName, port: 0)) != nil
                        try pipeline.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: isAddress ? nil : serverName))
                    }
                    try pipeline.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
            head.headers.add(name: "Host", value: target.hostHeader)
            head.headers.add(name: "Connection", value: "close")
            head.headers.add(name: "Content-Length", value: "0")
            for (name, value) in headers { head.headers.add(name: name, value: value) }
            // In one write: the server may answer the head alone (it has no body) and close
            // the connection before a second write reached the channel, which then failed.
            try await outbound.write(contentsOf: [.head(head), .end(nil)])
            var response = Response(status: 0, body: [])
            for try await part in inbound {
                switch part {
                case .head(let head): response.status = Int(head.status.code)
                case .body(var buffer): response.body += buffer.readBytes(length: buffer.readableBytes) ?? []
                case .end: return response
                }
            }
            throw StoreAdminError.unreachable(target.description, reason: "the connection closed before the whole answer")
        }
    }

    private static func reason(for error: any Error) -> String {
        if let error = error as? IOError, error.errnoCode == ECONNREFUSED { return "connection refused" }
        if let error = error as? NIOConnectionError, let first = error.connectionErrors.first { return reason(for: first.error) }
        if let error = error as? ChannelError, case .connectTimeout = error { return "connection timed out" }
        return "\(error)"
    }
}
