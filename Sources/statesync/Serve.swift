import ArgumentParser
import BoardApp
import Foundation
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle
import StateSyncCore
import StateSyncJournal
import StateSyncPostgres
import StateSyncProtocol
import StateSyncSQLite
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

    @Option(help: "Store the journal in PostgreSQL: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE ($STATESYNC_POSTGRES_URL takes the same, out of the argument list). Cluster mode, in progress (README: Running a cluster); --data is ignored.")
    var postgres: String?

    @Option(help: "With --postgres: seconds between reads of the store's head, to follow other nodes' writes that no notification announced (0.05…60).")
    var pollInterval = Self.defaultPollInterval

    @Option(help: "With --postgres: seconds between this node's heartbeats in the cluster (it also looks for dead nodes then).")
    var presenceHeartbeat = Self.seconds(PostgresNode().heartbeatInterval)

    @Option(help: "With --postgres: seconds without a heartbeat after which a node is dead and its sessions leave presence.")
    var presenceExpiry = Self.seconds(PostgresNode().expiry)

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

    @Option(help: "The deepest JSON nesting of a client message; deeper ones are refused with bad_json.")
    var maxNestingDepth = SessionConfiguration().maxNestingDepth

    @Option(help: "Subscriptions one connection may hold open.")
    var maxSubscriptions = SessionConfiguration().maxSubscriptions

    @Option(help: "Sustained messages per second one connection may send; above it: rate_limited.")
    var messagesPerSecond = SessionConfiguration().messagesPerSecond

    @Option(help: "Messages one connection may send at once above the sustained rate.")
    var burst = SessionConfiguration().burst

    @Option(help: "Seconds without a received byte before the server pings a connection (0: never).")
    var pingInterval = Self.seconds(SessionConfiguration().pingInterval ?? .zero)

    @Option(help: "Seconds without a received byte (pongs count) before a connection is closed with 1001 (0: never).")
    var idleTimeout = Self.seconds(SessionConfiguration().idleTimeout ?? .zero)

    @Option(help: "TYPE=ROLE: only ROLE and above may dispatch actions of TYPE (e.g. resetCounter=admin); others get forbidden. Repeatable.")
    var restrictAction: [String] = []

    @Option(help: "Outcomes remembered for each clientId (exactly-once), its most recent.")
    var outcomesPerClient = OutcomeRetention().perClient

    @Option(help: "Seconds after its last dispatch during which a clientId's outcomes are never forgotten.")
    var outcomeWindow = Int(OutcomeRetention().window.components.seconds)

    @Option(help: "ClientIds whose outcomes are remembered; a new one beyond it, while all dispatched within --outcome-window, gets too_many_clients.")
    var maxClientIds = OutcomeRetention().maxClients

    @Option(help: "Devtools API requests answered at once, server-wide; more get 503.")
    var maxDevtoolsRequests = StateSyncServerConfiguration().maxDevtoolsRequests

    @Option(help: "Journal revisions kept behind the newest snapshot (older ones are deleted; time travel reaches what is kept).")
    var journalRetention = JournalRetention().revisions

    @Option(help: "Bytes of journaled actions kept behind the newest snapshot (with --memory: of all entries kept).")
    var journalRetentionBytes = JournalRetention().bytes

    @Option(help: "Snapshots kept older than the retained journal, sparser with age (time travel rebuilds their revisions).")
    var olderSnapshots = JournalRetention().olderSnapshots

    @Option(help: "When the journal lost acknowledged revisions: refuse (exit 1) or new-epoch (serve what is left; clients reload).")
    var onDamagedJournal = DamagedJournalPolicy.refuse.rawValue

    @Option(help: "Bytes queued for one connection (the client not reading) above which it is closed with 1008.")
    var maxOutboundBytes = SessionConfiguration().maxOutboundBytes

    @Option(help: "Seconds a client has to send a whole HTTP request (an upgrade too); then 408 and closed.")
    var requestTimeout = Self.seconds(ConnectionLimits().requestTimeout)

    @Option(help: "Seconds an idle kept-alive HTTP connection stays open between requests.")
    var keepAliveTimeout = Self.seconds(ConnectionLimits().keepAliveTimeout)

    @Option(help: "Seconds a WebSocket may stay open without hello; then closed with 1008.")
    var helloTimeout = Self.seconds(SessionConfiguration().helloTimeout ?? .seconds(10))

    @Option(help: "Open connections (HTTP and WebSocket) above which a new one gets 503.")
    var maxConnections = ConnectionLimits().maxConnections

    @Option(help: "Open connections from one IP address (IPv6: one /64) above which a new one from there gets 503.")
    var maxConnectionsPerIp = ConnectionLimits().maxConnectionsPerAddress

    @Option(help: "Sustained hellos per second from one IP address; above it: rate_limited and closed with 1008.")
    var joinsPerSecond = ConnectionLimits().joinsPerSecondPerAddress

    @Option(help: "Hellos one IP address may send at once above the sustained rate.")
    var joinBurst = ConnectionLimits().joinBurstPerAddress

    @Option(help: "IP addresses whose join rate is remembered at once; beyond it the one idle longest is forgotten.")
    var maxTrackedAddresses = ConnectionLimits().maxTrackedAddresses

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

    @OptionGroup
    var board: BoardLimitOptions

    @Option(help: "Write a full snapshot every this many revisions (and at shutdown).")
    var snapshotEvery = Int(SyncEngineConfiguration().snapshotEvery)

    @Option(help: "Event-loop threads: each serves its share of the connections and sends their patches (default: one per core).")
    var threads = System.coreCount

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(help: "Development only: delay everything sent on each /sync connection by this many milliseconds, to see a far-away server (0: off).")
    var injectLatency = 0

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not a TCP port (0…65535)") }
        guard !(memory && postgres != nil) else { throw ValidationError("--memory and --postgres exclude each other") }
        guard presenceHeartbeat >= 0.1, presenceExpiry > presenceHeartbeat, presenceExpiry <= 3_600 else {
            throw ValidationError("--presence-heartbeat must be at least 0.1 s and --presence-expiry longer than it, at most 3600 s")
        }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        guard maxMessageBytes >= 1_024 else { throw ValidationError("--max-message-bytes \(maxMessageBytes) is below 1024") }
        guard maxNestingDepth >= 2 else { throw ValidationError("--max-nesting-depth must be at least 2 (a message is an object holding an action object)") }
        guard maxSubscriptions >= 1 else { throw ValidationError("--max-subscriptions must be at least 1") }
        guard (0...60_000).contains(injectLatency) else { throw ValidationError("--inject-latency \(injectLatency) is not 0…60000 milliseconds") }
        guard messagesPerSecond >= 1 else { throw ValidationError("--messages-per-second must be at least 1") }
        guard burst >= 1 else { throw ValidationError("--burst must be at least 1") }
        guard pingInterval >= 0, idleTimeout >= 0 else { throw ValidationError("--ping-interval and --idle-timeout cannot be negative") }
        guard outcomesPerClient >= 1 else { throw ValidationError("--outcomes-per-client must be at least 1") }
        guard (0.05...60).contains(pollInterval) else { throw ValidationError("--poll-interval \(pollInterval) is not 0.05…60 seconds") }
        guard outcomeWindow >= 1 else { throw ValidationError("--outcome-window must be at least 1 second") }
        guard maxClientIds >= 1 else { throw ValidationError("--max-client-ids must be at least 1") }
        guard maxDevtoolsRequests >= 1 else { throw ValidationError("--max-devtools-requests must be at least 1") }
        guard journalRetention >= 1 else { throw ValidationError("--journal-retention must be at least 1") }
        guard journalRetentionBytes >= 1 else { throw ValidationError("--journal-retention-bytes must be at least 1") }
        guard olderSnapshots >= 0 else { throw ValidationError("--older-snapshots must be at least 0") }
        guard DamagedJournalPolicy(rawValue: onDamagedJournal) != nil else {
            throw ValidationError("--on-damaged-journal \(onDamagedJournal) is not refuse or new-epoch")
        }
        guard maxOutboundBytes >= 1 << 20 else { throw ValidationError("--max-outbound-bytes \(maxOutboundBytes) is below 1048576 (where slow consumers start to be coalesced)") }
        for (flag, value) in [("--request-timeout", requestTimeout), ("--keep-alive-timeout", keepAliveTimeout), ("--hello-timeout", helloTimeout)] {
            guard value >= 0.01, value <= 86_400 else { throw ValidationError("\(flag) \(value) is not between 0.01 and 86400 seconds") }
        }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1") }
        guard maxConnectionsPerIp >= 1 else { throw ValidationError("--max-connections-per-ip must be at least 1") }
        guard joinsPerSecond >= 1 else { throw ValidationError("--joins-per-second must be at least 1") }
        guard joinBurst >= 1 else { throw ValidationError("--join-burst must be at least 1") }
        guard maxTrackedAddresses >= 1 else { throw ValidationError("--max-tracked-addresses must be at least 1") }
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
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
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
        // The board shows the store's pipeline on the server: its limits, a log
        // line and a counter per action (middleware); `/roll` in the chat is
        // Board.effects.
        let server = StateSyncServer<Board>(
            configuration: configuration,
            middleware: [
                BoardLimitsMiddleware(board.limits), ActionLogMiddleware<Board>(logger: logger), ActionMetricsMiddleware<Board>(),
            ],
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
        configuration.session.maxNestingDepth = maxNestingDepth
        configuration.session.messagesPerSecond = messagesPerSecond
        configuration.session.burst = burst
        configuration.session.pingInterval = pingInterval > 0 ? .seconds(pingInterval) : nil
        configuration.session.idleTimeout = idleTimeout > 0 ? .seconds(idleTimeout) : nil
        configuration.engine.outcomeRetention = OutcomeRetention(
            perClient: outcomesPerClient, window: .seconds(outcomeWindow), maxClients: maxClientIds)
        configuration.maxDevtoolsRequests = maxDevtoolsRequests
        configuration.retention.revisions = journalRetention
        configuration.retention.bytes = journalRetentionBytes
        configuration.retention.olderSnapshots = olderSnapshots
        if !memory, let postgresURL {
            let node = PostgresNode(heartbeatInterval: .seconds(presenceHeartbeat), expiry: .seconds(presenceExpiry))
            configuration.storage = try Self.postgresStorage(
                url: postgresURL, retention: configuration.retention, pollInterval: .seconds(pollInterval), node: node)
        }
        configuration.damagedJournal = DamagedJournalPolicy(rawValue: onDamagedJournal) ?? .refuse
        configuration.session.maxOutboundBytes = maxOutboundBytes
        configuration.session.helloTimeout = .seconds(helloTimeout)
        configuration.connections = ConnectionLimits(
            maxConnections: maxConnections, maxConnectionsPerAddress: maxConnectionsPerIp,
            requestTimeout: .seconds(requestTimeout), keepAliveTimeout: .seconds(keepAliveTimeout),
            joinsPerSecondPerAddress: joinsPerSecond, joinBurstPerAddress: joinBurst,
            maxTrackedAddresses: maxTrackedAddresses)
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
        configuration.injectedLatency = injectLatency > 0 ? .milliseconds(injectLatency) : nil
        configuration.threads = threads
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
        for argument in restrictAction {
            let (type, role) = try TokensFile.parseActionRestriction(argument)
            configuration.session.actionPermissions.minimumRoles[type] = role
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

    /// A default duration as the seconds its flag takes.
    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
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
