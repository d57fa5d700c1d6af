import BoardApp
package import Logging
import NIOCore
import Prometheus
import ServiceLifecycle
package import StateSyncCore
package import StateSyncServer

/// A `StateSyncServer` (of the board, or any app) on a loopback port chosen
/// by the OS, run in a `ServiceGroup` for the duration of a test body.
package struct TestServer: Sendable {
    /// The bound port.
    package let port: Int

    /// `ws://127.0.0.1:PORT/sync`.
    package var url: String { "ws://127.0.0.1:\(port)/sync" }

    /// A quiet logger for servers under test.
    package static let logger = Logger(label: "statesync.test") { _ in SwiftLogNoOpLogHandler() }

    /// Memory storage, port 0, no pings: what most tests need.
    package static var configuration: StateSyncServerConfiguration {
        var configuration = StateSyncServerConfiguration(port: 0, storage: .memory)
        configuration.session.pingInterval = nil
        configuration.session.idleTimeout = nil
        // A test starved on a loaded machine may take more than the default 10 s to send its upgrade or hello.
        configuration.session.helloTimeout = .seconds(60)
        configuration.connections.requestTimeout = .seconds(60)
        return configuration
    }

    /// Runs `body` against a started server, then shuts it down gracefully
    /// and waits for it to stop. The server records its metrics in a
    /// Prometheus registry of its own, which `/metrics` serves (tests run in
    /// parallel in one process, so none bootstraps the global `MetricsSystem`).
    package static func with<T, App: StateSyncApp>(
        _ configuration: StateSyncServerConfiguration = TestServer.configuration, app: App.Type = Board.self,
        middleware: [any Middleware<App.State, SessionCommand<App.Action>>] = [],
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        let registry = PrometheusCollectorRegistry()
        var configuration = configuration
        configuration.metricsExposition = configuration.metricsExposition ?? { registry.emitToBuffer() }
        let server = StateSyncServer<App>(
            configuration: configuration, middleware: middleware,
            metrics: ServerMetrics(factory: PrometheusMetricsFactory(registry: registry)), logger: logger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [server], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let address = try await server.waitUntilStarted()
            let result: Result<T, any Error>
            do {
                result = .success(try await body(TestServer(port: address.port ?? 0)))
            } catch {
                result = .failure(error)
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try result.get()
        }
    }
}
