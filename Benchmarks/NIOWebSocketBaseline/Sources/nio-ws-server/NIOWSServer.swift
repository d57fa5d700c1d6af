// nio-ws-server: a minimal WebSocket server built only from swift-nio's own
// NIOPosix, NIOHTTP1 and NIOWebSocket: the baseline of BENCHMARKS.md.
//
//   GET /echo       every text or binary message goes back to its sender
//   GET /broadcast  every text message goes to all /broadcast clients, sender included
//   anything else   404, no upgrade

import ArgumentParser
import Dispatch
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct NIOWSServer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nio-ws-server",
        abstract: "Minimal swift-nio NIOWebSocket server: /echo and /broadcast (the benchmarks' baseline)."
    )

    @Option(help: "Address to bind (keep it on loopback).")
    var host: String = "127.0.0.1"

    @Option(help: "TCP port (0: the system chooses; the listening line says which).")
    var port: Int = 9001

    @Option(help: "Event loop threads (default: number of cores).")
    var threads: Int = System.coreCount

    @Option(help: "Exit by itself after this many seconds (0: run until SIGINT or SIGTERM).")
    var seconds: Int = 0

    @Option(help: "Largest accepted frame or aggregated message, in bytes.")
    var maxFrameSize: Int = 1 << 20

    func run() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: self.threads)
        let hub = BroadcastHub(group: group)
        let maxFrameSize = self.maxFrameSize

        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                let notFound = NotFoundHandler()
                let upgrader = NIOWebSocketServerUpgrader(
                    maxFrameSize: maxFrameSize,
                    automaticErrorHandling: true,
                    shouldUpgrade: { channel, head in
                        channel.eventLoop.makeSucceededFuture(Endpoint(uri: head.uri) == nil ? nil : HTTPHeaders())
                    },
                    upgradePipelineHandler: { channel, head in
                        channel.eventLoop.makeCompletedFuture {
                            let sync = channel.pipeline.syncOperations
                            try sync.addHandler(
                                NIOWebSocketFrameAggregator(
                                    minNonFinalFragmentSize: 0,
                                    maxAccumulatedFrameCount: 1 << 10,
                                    maxAccumulatedFrameSize: maxFrameSize
                                )
                            )
                            // shouldUpgrade let only known endpoints through.
                            try sync.addHandler(EndpointHandler(endpoint: Endpoint(uri: head.uri) ?? .echo, hub: hub))
                        }
                    }
                )
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: (
                            upgraders: [upgrader],
                            completionHandler: { context in
                                // Once the connection speaks WebSocket, the HTTP fallback goes.
                                context.pipeline.syncOperations.removeHandler(notFound, promise: nil)
                            }
                        )
                    )
                    try channel.pipeline.syncOperations.addHandler(notFound)
                }
            }

        let serverChannel = try bootstrap.bind(host: self.host, port: self.port).wait()
        let address = serverChannel.localAddress.map { "\($0)" } ?? "?"
        let port = serverChannel.localAddress?.port ?? self.port
        writeLine("nio-ws-server listening on \(address) ws://\(self.host):\(port)/ threads=\(self.threads) (/echo, /broadcast)")

        // A bounded lifetime, and a clean stop on SIGINT or SIGTERM.
        let closeServer: @Sendable () -> Void = { serverChannel.close(promise: nil) }
        if self.seconds > 0 {
            serverChannel.eventLoop.scheduleTask(in: .seconds(Int64(self.seconds))) { closeServer() }
        }
        let signalSources = [SIGINT, SIGTERM].map { sig -> any DispatchSourceSignal in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler(handler: closeServer)
            source.resume()
            return source
        }

        try serverChannel.closeFuture.wait()
        signalSources.forEach { $0.cancel() }
        try group.syncShutdownGracefully()
        writeLine("nio-ws-server stopped")
    }
}

/// Writes one line to standard output at once (unbuffered), so that a script
/// waiting for the listening line sees it while the server runs.
func writeLine(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { bytes in _ = write(STDOUT_FILENO, bytes.baseAddress, bytes.count) }
}
