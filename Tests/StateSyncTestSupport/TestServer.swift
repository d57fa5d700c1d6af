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
    /// and waits for it to stop (see ``start(_:app:middleware:)``).
    package static func with<T, App: StateSyncApp>(
        _ configuration: StateSyncServerConfiguration = TestServer.configuration, app: App.Type = Board.self,
        middleware: [any Middleware<App.State, SessionCommand<App.Action>>] = [],
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        let running = try await start(configuration, app: app, middleware: middleware)
        let result: Result<T, any Error>
        do {
            result = .success(try await body(running.server))
        } catch {
            result = .failure(error)
        }
        try await running.stop()
        return try result.get()
    }

    /// Starts a server in a `ServiceGroup` of its own and returns once it
    /// listens; ``Running/stop()`` shuts it down. The server records its
    /// metrics in a Prometheus registry of its own, which `/metrics` serves
    /// (tests run in parallel in one process, so none bootstraps the global
    /// `MetricsSystem`).
    package static func start<App: StateSyncApp>(
        _ configuration: StateSyncServerConfiguration = TestServer.configuration, app: App.Type = Board.self,
        middleware: [any Middleware<App.State, SessionCommand<App.Action>>] = []
    ) async throws -> Running {
        let registry = PrometheusCollectorRegistry()
        var configuration = configuration
        configuration.metricsExposition = configuration.metricsExposition ?? { registry.emitToBuffer() }
        let server = StateSyncServer<App>(
            configuration: configuration, middleware: middleware,
            metrics: ServerMetrics(factory: PrometheusMetricsFactory(registry: registry)), logger: logger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [server], logger: logger))
        let task = Task { try await group.run() }
        do {
            let address = try await server.waitUntilStarted()
            return Running(server: TestServer(port: address.port ?? 0), group: group, task: task)
        } catch {
            await group.triggerGracefulShutdown()
            _ = try? await task.value   // it failed to start: the error above says why
            throw error
        }
    }

    /// A server of ``start(_:app:middleware:)``, for tests that stop and
    /// start servers as they go (a rolling upgrade of a cluster's nodes).
    package final class Running: Sendable {
        /// Where it listens.
        package let server: TestServer
        private let group: ServiceGroup
        private let task: Task<Void, any Error>

        init(server: TestServer, group: ServiceGroup, task: Task<Void, any Error>) {
            self.server = server
            self.group = group
            self.task = task
        }

        /// Shuts the server down gracefully and waits for it to stop.
        package func stop() async throws {
            await group.triggerGracefulShutdown()
            try await task.value
        }
    }
}
