import NIOCore
import Testing
import WebSocket

/// A client binds the local address its options name: against a server
/// that takes one connection per client address, a second one from
/// 127.0.0.2 is refused while one from 127.0.0.3 is taken.
@Suite(.timeLimit(.minutes(1)))
struct ClientLocalAddressTests {
    static func options(from address: String) throws -> WebSocketChannelOptions {
        var options = WebSocketChannelOptions()
        options.localAddress = try SocketAddress(ipAddress: address, port: 0)
        return options
    }

    @Test func connectionsComeFromTheAddressTheyBind() async throws {
        var configuration = WebSocketServerConfiguration()
        configuration.maxConnectionsPerAddress = 1
        try await withTestServer(configuration: configuration, routes: [echoRoute()]) { _, port in
            let url = "ws://127.0.0.1:\(port)/echo"
            let first = try await WebSocketClient.connect(url: url, options: Self.options(from: "127.0.0.2"))
            await #expect(throws: (any Error).self, "a second connection from 127.0.0.2") {
                _ = try await WebSocketClient.connect(url: url, options: Self.options(from: "127.0.0.2"))
            }
            let other = try await WebSocketClient.connect(url: url, options: Self.options(from: "127.0.0.3"))
            try await other.outbound.send(.text("hi"))
            var messages = other.inbound.makeAsyncIterator()
            #expect(try await messages.next() == .text("hi"))
            try await first.outbound.close()
            try await other.outbound.close()
        }
    }
}
