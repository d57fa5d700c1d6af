import NIOCore
import WebSocket

/// Runs `body` with a started server on a loopback port, then shuts it down
/// and waits for `run()` to return.
func withTestServer<Result: Sendable>(
    configuration: WebSocketServerConfiguration = .init(),
    routes: [WebSocketRoute],
    httpRoutes: [HTTPRoute] = [],
    _ body: @Sendable (WebSocketServer, Int) async throws -> Result
) async throws -> Result {
    let server = try WebSocketServer(configuration: configuration, routes: routes, httpRoutes: httpRoutes)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run() }
        let port = try await server.waitUntilStarted().port ?? 0
        do {
            let result = try await body(server, port)
            server.shutdown()
            try await group.waitForAll()
            return result
        } catch {
            server.shutdown()
            try await group.waitForAll()
            throw error
        }
    }
}

/// An `async` echo route at `path`.
func echoRoute(path: String = "/echo", configuration: WebSocketConfiguration = .init()) -> WebSocketRoute {
    WebSocketRoute(path: path, configuration: configuration) { connection in
        for await message in connection.inbound {
            try await connection.outbound.send(message)
        }
    }
}
