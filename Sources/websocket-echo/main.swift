// websocket-echo: the echo and broadcast server used by the Autobahn
// conformance suite, the interop tests and the wsbench comparison.
import Dispatch
import NIOCore
import NIOHTTP1
import NIOPosix
import WebSocket

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let options: EchoOptions
do {
    options = try EchoOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    if let message = error.message { print("websocket-echo: \(message)") }
    print(EchoOptions.usage)
    exit(error.message == nil ? 0 : 2)
}

let group = MultiThreadedEventLoopGroup(numberOfThreads: options.threads)
var configuration = WebSocketConfiguration(
    maxFrameSize: options.maxMessageSize, maxMessageSize: options.maxMessageSize,
    pingInterval: nil, idleTimeout: nil)
if !options.compression { configuration.compression = nil }

let tls = try options.tlsCertificate.map { certificate in
    try WebSocketTLS.serverConfiguration(certificatePath: certificate, privateKeyPath: options.tlsKey ?? "")
}
let server = try WebSocketServer(
    configuration: WebSocketServerConfiguration(host: options.host, port: options.port, tls: tls),
    routes: [
        WebSocketRoute(path: "/echo", configuration: configuration, handler: .eventLoop(WebSocketEchoHandler())),
        WebSocketRoute(path: "/broadcast", configuration: configuration, handler: .eventLoop(BroadcastHandler(group: group))),
    ],
    httpRoutes: [HTTPRoute(path: "/health") { _, _ in HTTPRouteResponse(status: .ok, body: "ok\n") }],
    group: group)

// SIGINT / SIGTERM: graceful shutdown (1001 to open connections).
signal(SIGINT, SIG_IGN)
signal(SIGTERM, SIG_IGN)
let signalSources = [SIGINT, SIGTERM].map { signalNumber in
    let source = DispatchSource.makeSignalSource(signal: signalNumber)
    source.setEventHandler { server.shutdown() }
    source.resume()
    return source
}

try await withThrowingDiscardingTaskGroup { tasks in
    tasks.addTask { try await server.run() }
    let address = try await server.waitUntilStarted()
    // Written unbuffered: scripts wait for this line to know the port.
    let line = "websocket-echo listening on \(options.tlsCertificate == nil ? "ws" : "wss")://\(options.host):\(address.port ?? options.port)/echo\n"
    _ = line.withCString { write(1, $0, strlen($0)) }
}
signalSources.forEach { $0.cancel() }
try await group.shutdownGracefully()
