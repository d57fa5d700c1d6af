import ArgumentParser
import BoardApp
import Foundation
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle
import StateSyncCore
import StateSyncProtocol
import StateSyncServer
import StateSyncWebClients
import UnixSignals
import WebSocket

/// `statesync serve`: serves the board app (docs/PROTOCOL.md) until SIGTERM or SIGINT,
/// with its page at `/` and `/board` and the devtools at `/devtools`.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the board app over WebSocket (ws://HOST:PORT/sync), its page at / and devtools at /devtools.",
        discussion: """
            Stops on SIGTERM or SIGINT: finishes and acknowledges what was received, \
            writes a final snapshot, closes connections with 1001 and exits 0.
            Tokens file: one "TOKEN ROLE" pair per line (ROLE is reader, writer or admin); \
            blank lines and lines starting with # are ignored.
            """
    )

    @Option(help: "The address to listen on (0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(help: "The TCP port (0 lets the OS choose; the URL printed says which).")
    var port = 8080

    @Option(help: "The data directory (SQLite journal and snapshots; created when missing).")
    var data = "./statesync-data"

    @Flag(help: "Keep the state in memory only (nothing is stored; --data is ignored).")
    var memory = false

    @Option(help: "A token clients must send in hello: TOKEN (a writer) or TOKEN=ROLE. Repeatable; enables authentication. $STATESYNC_TOKENS takes the same, comma-separated, out of the argument list.")
    var token: [String] = []

    @Option(help: "A file of \"TOKEN ROLE\" lines; enables authentication.")
    var tokensFile: String?

    @Option(help: "PATH=ROLE: only ROLE and above may read PATH, or any path containing it (e.g. /presence=admin). Repeatable.")
    var restrictRead: [String] = []

    @Option(help: "A PEM certificate chain: serve wss:// (with --tls-key).")
    var tlsCert: String?

    @Option(help: "The PEM private key of --tls-cert.")
    var tlsKey: String?

    @Flag(help: "Also serve /echo (a WebSocket echo for conformance tests).")
    var echo = false

    @Option(help: "The largest client message in bytes; larger ones close the connection with 1009.")
    var maxMessageBytes = SessionConfiguration().maxMessageBytes

    @Option(help: "A browser origin (scheme://host[:port]) allowed besides the server's own; * allows every origin. Repeatable.")
    var allowOrigin: [String] = []

    @Option(help: "A Host name answered besides localhost, 127.0.0.1 and ::1 when bound to loopback. Repeatable.")
    var allowHost: [String] = []

    @Flag(help: "Answer /metrics only with an admin token (Authorization: Bearer TOKEN); needs --token or --tokens-file.")
    var metricsAdminOnly = false

    @Option(help: "Subscriptions one connection may hold open.")
    var maxSubscriptions = SessionConfiguration().maxSubscriptions

    @Option(help: "Sustained messages per second one connection may send; above it: rate_limited.")
    var messagesPerSecond = SessionConfiguration().messagesPerSecond

    @Option(help: "Messages one connection may send at once above the sustained rate.")
    var burst = SessionConfiguration().burst

    @Option(help: "Sustained bytes per second one connection may send (bursts of twice that); above it: rate_limited.")
    var bytesPerSecond = SessionConfiguration().bytesPerSecond

    @Option(help: "Most bytes of the state's JSON; an action growing it further is rejected state_too_large.")
    var maxStateBytes = SyncEngineConfiguration().maxStateBytes

    @Option(help: "Answers held back for a connection that does not read; beyond it the connection is closed (1008).")
    var maxDeferredAnswers = SyncEngineConfiguration().maxDeferredAnswers

    @Option(help: "Bytes of answers held back for a connection that does not read; beyond it the connection is closed (1008).")
    var maxDeferredBytes = SyncEngineConfiguration().maxDeferredBytes

    @Option(help: "Requests queued for the engine; beyond it connections are not read until it catches up.")
    var maxQueuedRequests = SyncEngineConfiguration().maxQueuedRequests

    @Option(help: "Most tokens of a path a client sends (subscribe, get, the HTTP API).")
    var maxPathDepth = SessionConfiguration().pathLimits.maxTokens

    @Option(help: "Most bytes of a path a client sends.")
    var maxPathBytes = SessionConfiguration().pathLimits.maxBytes

    @Option(help: "Most bytes of an id or clientId a client sends.")
    var maxIdBytes = SessionConfiguration().identifierLimits.maxIdentifierBytes

    @Option(help: "Most characters of the name a session gives in hello.")
    var maxNameLength = SessionConfiguration().identifierLimits.maxNameLength

    @Option(help: "Write a full snapshot every this many revisions (and at shutdown).")
    var snapshotEvery = Int(SyncEngineConfiguration().snapshotEvery)

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not a TCP port (0…65535)") }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        guard maxMessageBytes >= 1_024 else { throw ValidationError("--max-message-bytes \(maxMessageBytes) is below 1024") }
        guard maxSubscriptions >= 1 else { throw ValidationError("--max-subscriptions must be at least 1") }
        guard messagesPerSecond >= 1 else { throw ValidationError("--messages-per-second must be at least 1") }
        guard burst >= 1 else { throw ValidationError("--burst must be at least 1") }
        guard bytesPerSecond >= 1 else { throw ValidationError("--bytes-per-second must be at least 1") }
        guard maxStateBytes >= 1 else { throw ValidationError("--max-state-bytes must be at least 1") }
        guard maxDeferredAnswers >= 1 else { throw ValidationError("--max-deferred-answers must be at least 1") }
        guard maxDeferredBytes >= 1 else { throw ValidationError("--max-deferred-bytes must be at least 1") }
        guard maxQueuedRequests >= 1 else { throw ValidationError("--max-queued-requests must be at least 1") }
        guard maxPathDepth >= 1 else { throw ValidationError("--max-path-depth must be at least 1") }
        guard maxPathBytes >= 1 else { throw ValidationError("--max-path-bytes must be at least 1") }
        guard maxIdBytes >= 1 else { throw ValidationError("--max-id-bytes must be at least 1") }
        guard maxNameLength >= 1 else { throw ValidationError("--max-name-length must be at least 1") }
        guard snapshotEvery >= 1 else { throw ValidationError("--snapshot-every must be at least 1") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level \(logLevel) is not one of trace, debug, info, notice, warning, error, critical")
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let logger = Logger(label: "statesync")

        var configuration = try serverConfiguration()
        configuration.metricsExposition = { registry.emitToBuffer() }
        // The board shows the store's pipeline on the server: a log line and a
        // counter per action (middleware); `/roll` in the chat is Board.effects.
        let server = StateSyncServer<Board>(
            configuration: configuration,
            middleware: [ActionLogMiddleware<Board>(logger: logger), ActionMetricsMiddleware<Board>()],
            logger: logger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        let scheme = configuration.tls == nil ? "ws" : "wss"
        do {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                let address = try await server.waitUntilStarted()
                printLine("statesync listening on \(scheme)://\(Self.hostForURL(host))\(":")\(address.port ?? port)/sync")
                try await tasks.waitForAll()
            }
        } catch {
            throw CommandFailure(message: Self.describe(error, host: host, port: port))
        }
    }

    private func serverConfiguration() throws(CommandFailure) -> StateSyncServerConfiguration {
        var configuration = StateSyncServerConfiguration(host: host, port: port, echo: echo)
        configuration.storage = memory ? .memory : .directory(data)
        do {
            let board = try WebClientFiles.file(named: "board.html")
            configuration.pages = [WebPage(path: "/", file: board), WebPage(path: "/board", file: board)]
        } catch {
            throw CommandFailure(message: "\(error)")
        }
        configuration.session.maxMessageBytes = maxMessageBytes
        configuration.session.maxSubscriptions = maxSubscriptions
        configuration.session.messagesPerSecond = messagesPerSecond
        configuration.session.burst = burst
        configuration.session.bytesPerSecond = bytesPerSecond
        configuration.engine.maxStateBytes = maxStateBytes
        configuration.engine.maxDeferredAnswers = maxDeferredAnswers
        configuration.engine.maxDeferredBytes = maxDeferredBytes
        configuration.engine.maxQueuedRequests = maxQueuedRequests
        configuration.requestPolicy = RequestPolicy(allowedOrigins: allowOrigin, allowedHosts: allowHost)
        configuration.metricsAdminOnly = metricsAdminOnly
        configuration.session.pathLimits = JSONPointer.Limits(maxTokens: maxPathDepth, maxBytes: maxPathBytes)
        configuration.session.identifierLimits = IdentifierLimits(maxIdentifierBytes: maxIdBytes, maxNameLength: maxNameLength)
        configuration.engine.snapshotEvery = UInt64(snapshotEvery)
        var tokens: [String: Role] = [:]
        if let tokensFile {
            let text: String
            do {
                text = try String(contentsOfFile: tokensFile, encoding: .utf8)
            } catch {
                throw CommandFailure(message: "cannot read the tokens file \(tokensFile): \(error.localizedDescription)")
            }
            tokens = try TokensFile.parse(text, path: tokensFile)
            if let warning = TokensFile.permissionWarning(path: tokensFile) { printError(warning) }
        }
        // Tokens kept out of argv (which every user of the machine can read).
        for argument in TokensFile.environmentTokens(ProcessInfo.processInfo.environment) {
            let (value, role) = try TokensFile.parseArgument(argument)
            tokens[value] = role
        }
        for argument in token {
            let (value, role) = try TokensFile.parseArgument(argument)
            tokens[value] = role
        }
        if !tokens.isEmpty { configuration.authentication = .tokens(tokens) }
        if metricsAdminOnly, tokens.isEmpty {
            throw CommandFailure(message: "--metrics-admin-only needs an admin token: give --token TOKEN=admin, --tokens-file or $STATESYNC_TOKENS")
        }
        for argument in restrictRead {
            let (path, role) = try TokensFile.parseReadRestriction(argument)
            configuration.session.readPermissions.minimumRoles[path] = role
        }
        if let tlsCert, let tlsKey {
            do {
                configuration.tls = try WebSocketTLS.serverConfiguration(certificatePath: tlsCert, privateKeyPath: tlsKey)
            } catch {
                throw CommandFailure(message: "cannot load TLS certificate \(tlsCert) and key \(tlsKey): \(error)")
            }
        }
        return configuration
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
