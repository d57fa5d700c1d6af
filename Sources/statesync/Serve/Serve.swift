import ArgumentParser
import BoardApp
import Foundation
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle
import WebSocket
import StateSyncServer
import StateSyncWebClients
import UnixSignals

/// `statesync serve`: serves the board app (docs/PROTOCOL.md) until SIGTERM or SIGINT,
/// with its page at `/` and `/board` and the devtools at `/devtools`. Its settings come
/// from a configuration file, `STATESYNC_*` variables and flags (``ServeConfiguration``).
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the board app over WebSocket (ws://HOST:PORT/sync), its page at / and devtools at /devtools.",
        discussion: """
            Stops on SIGTERM or SIGINT: finishes and acknowledges what was received, \
            writes a final snapshot, closes connections with 1001 and exits 0.
            Every option is also a key of the configuration file and a STATESYNC_* \
            environment variable (docs/configuration.md); flags win over variables, \
            which win over the file.
            Tokens file: one "TOKEN ROLE" pair per line (ROLE is reader, writer or admin); \
            blank lines and lines starting with # are ignored.
            """
    )

    @Option(help: "A configuration file: YAML (.yaml, .yml) or JSON (.json), keys in docs/configuration.md ($STATESYNC_CONFIG names one too).")
    var config: String?

    @Flag(help: "Print the effective configuration (file, STATESYNC_* variables and flags; secrets masked) in the file's format, YAML without one, and exit.")
    var printConfig = false

    @OptionGroup var network: NetworkOptions
    @OptionGroup var storage: StorageOptions
    @OptionGroup var cluster: ClusterOptions
    @OptionGroup var auth: AuthOptions
    @OptionGroup var connections: ConnectionLimitOptions
    @OptionGroup var session: SessionOptions
    @OptionGroup var engine: EngineOptions
    @OptionGroup var stores: StoreOptions
    @OptionGroup var board: BoardLimitOptions

    @Option(help: ArgumentHelp("trace, debug, info, notice, warning, error or critical.", default: ServeConfiguration.defaults.logLevel.rawValue))
    var logLevel: String?

    func run() async throws {
        let settings = try ServeConfiguration(flags: flags, environment: ProcessInfo.processInfo.environment, file: config)
        if printConfig {
            FileHandle.standardOutput.write(Data(ConfigurationPrinter.text(of: settings, as: settings.fileFormat ?? .yaml).utf8))
            return
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = settings.logLevel
            return handler
        }
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let logger = Logger(label: "statesync")
        // Every connection holds a descriptor: take what the hard limit allows
        // (the server warns when --max-connections does not fit even then).
        OpenFileLimit.raise()
        MallocArenas.limit(environment: ProcessInfo.processInfo.environment, cores: ProcessInfo.processInfo.activeProcessorCount)

        var configuration = try settings.serverConfiguration()
        configuration.metricsExposition = { registry.emitToBuffer() }
        do {
            let board = try WebClientFiles.file(named: "board.html")
            configuration.pages = [WebPage(path: "/", file: board), WebPage(path: "/board", file: board)]
        } catch {
            throw CommandFailure(message: "\(error)")
        }
        // The board shows the store's pipeline on the server: its limits, a log
        // line and a counter per action (middleware); `/roll` in the chat is
        // Board.effects.
        let server = StateSyncServer<Board>(
            configuration: configuration,
            middleware: [
                BoardLimitsMiddleware(settings.board.limits), ActionLogMiddleware<Board>(logger: logger), ActionMetricsMiddleware<Board>(),
            ],
            logger: logger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        let (host, port) = (configuration.host, configuration.port)
        do {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                let address = try await server.waitUntilStarted()
                printLine("statesync listening on \(configuration.tls == nil ? "ws" : "wss")://\(Self.hostForURL(host)):\(address.port ?? port)/sync")
                try await tasks.waitForAll()
            }
        } catch {
            throw CommandFailure(message: Self.describe(error, host: host, port: port))
        }
    }

    /// The options given on the command line, under their settings' keys.
    var flags: FlagValues {
        var flags = FlagValues()
        let groups: [any SettingOptions] = [network, storage, cluster, auth, connections, session, engine, stores, board]
        for group in groups { group.add(to: &flags) }
        flags.set(ServeConfiguration.logLevelKey, logLevel)
        return flags
    }

    /// IPv6 literals are bracketed in URLs.
    private static func hostForURL(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }

    /// One line naming what went wrong.
    private static func describe(_ error: any Error, host: String, port: Int) -> String {
        if let error = error as? IOError, error.errnoCode == EADDRINUSE {
            return "cannot listen on \(host):\(port): the port is already in use"
        }
        if let error = error as? IOError, error.errnoCode == EADDRNOTAVAIL {
            return "cannot listen on \(host):\(port): the address is not available on this machine"
        }
        return "\(error)"
    }
}
