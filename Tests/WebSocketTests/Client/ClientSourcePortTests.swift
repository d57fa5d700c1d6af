#if os(Linux)
import NIOCore
import NIOPosix
import Testing
@testable import WebSocket

/// A client that binds an IPv4 source address takes its port when it
/// connects (`IP_BIND_ADDRESS_NO_PORT`), chosen for the whole 4-tuple, not
/// by a search for a port no other socket on that address holds.
@Suite(.timeLimit(.minutes(1)))
struct ClientSourcePortTests {
    @Test func anIPv4SourceAddressTakesItsPortWhenItConnects() async throws {
        try await withTestServer(routes: [echoRoute()]) { _, port in
            var options = WebSocketChannelOptions()
            options.localAddress = try SocketAddress(ipAddress: "127.0.0.2", port: 0)
            let target = try WebSocketURL("ws://127.0.0.1:\(port)/echo")
            let channel = try await WebSocketClient.connect(to: target, options: options, group: MultiThreadedEventLoopGroup.singleton).get()
            #expect(try await channel.getOption(WebSocketClient.bindAddressNoPort).get() == 1)
            #expect(channel.localAddress?.ipAddress == "127.0.0.2")
            #expect((channel.localAddress?.port ?? 0) != 0)
            try await channel.close()
        }
    }

    @Test func aSourceAddressWithAPortKeepsIt() async throws {
        try await withTestServer(routes: [echoRoute()]) { _, port in
            // A port the test reserves and frees, so that the client may bind it.
            let probe = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.2", port: 0).get()
            let chosen = try #require(probe.localAddress?.port)
            try await probe.close()
            var options = WebSocketChannelOptions()
            options.localAddress = try SocketAddress(ipAddress: "127.0.0.2", port: chosen)
            let target = try WebSocketURL("ws://127.0.0.1:\(port)/echo")
            let channel = try await WebSocketClient.connect(to: target, options: options, group: MultiThreadedEventLoopGroup.singleton).get()
            #expect(try await channel.getOption(WebSocketClient.bindAddressNoPort).get() == 0)
            #expect(channel.localAddress?.port == chosen)
            try await channel.close()
        }
    }
}
#endif
