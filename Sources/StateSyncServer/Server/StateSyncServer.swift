import CoreMetrics
public import Logging
public import NIOCore
import NIOHTTP1
import NIOPosix
public import ServiceLifecycle
public import StateSyncCore
import StateSyncJournal
import StateSyncProtocol
import StateSyncSQLite
import StateSyncWebClients
import Synchronization
import WebSocket

/// A StateSync server for any ``StateSyncApp``: the journal, the
/// ``SyncEngine``, `/sync` (docs/PROTOCOL.md, subprotocol `statesync.v1`),
/// the HTTP API under `/api/`, `/health`, `/metrics` when
/// ``StateSyncServerConfiguration/metricsExposition`` is set, the browser
/// client, the devtools and the app's own pages.
///
/// It is a swift-service-lifecycle `Service`. On graceful shutdown it reports
/// `stopping` on `/health`, lets the engine answer every request already
/// received, saves a final snapshot, then closes every connection with 1001.
///
/// ```swift
/// let server = StateSyncServer<Board>(
///     configuration: .init(port: 8080),
///     middleware: [ActionLogMiddleware(logger: logger), ActionMetricsMiddleware()],
///     logger: logger)
/// let group = ServiceGroup(configuration: .init(
///     services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
/// try await group.run()
/// ```
public final class StateSyncServer<App: StateSyncApp>: Service, Sendable {
    /// The configuration it was created with.
    public let configuration: StateSyncServerConfiguration
    private let middleware: [any Middleware<App.State, SessionCommand<App.Action>>]
    private let metrics: ServerMetrics
    private let logger: Logger
    private let started = StartSignal()
    private let stopping = Atomic<Bool>(false)
    private let sessionCounter = Atomic<UInt64>(0)
    /// The open `GET /api/watch` streams, ended at shutdown.
    private let eventStreams = EventStreams()
    /// The WebSocket server while running (for `/health`'s connection count).
    private let webSocketServer = Mutex<WebSocketServer?>(nil)

    /// A server; nothing happens until ``run()``. `middleware` runs around the
    /// app's reducer for every command, in order, on the engine's task.
    public init(
        configuration: StateSyncServerConfiguration = StateSyncServerConfiguration(),
        middleware: [any Middleware<App.State, SessionCommand<App.Action>>] = [],
        metrics: ServerMetrics = ServerMetrics(),
        logger: Logger = Logger(label: "statesync.server")
    ) {
        self.configuration = configuration
        self.middleware = middleware
        self.metrics = metrics
        self.logger = logger
    }

    /// The bound address once listening; throws why starting failed
    /// (the app's schema migrations do not lead to its version, storage
    /// locked or unreadable, port in use, bad TLS).
    public func waitUntilStarted() async throws -> SocketAddress {
        try await started.wait()
    }

    /// Opens the storage, recovers the state, serves until graceful shutdown
    /// (or cancellation), then shuts down cleanly as described above.
    public func run() async throws {
        // The connections' loops, shared with the engine's fan-out shards.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.threads))
        do {
            try await serve(on: group)
        } catch {
            await shutDown(group)
            throw error
        }
        await shutDown(group)
    }

    private func shutDown(_ group: MultiThreadedEventLoopGroup) async {
        do {
            try await group.shutdownGracefully()
        } catch {
            logger.warning("the event loops did not shut down cleanly", metadata: ["error": "\(error)"])
        }
    }

    /// Opens the storage, serves, and closes the storage once every store
    /// is closed.
    private func serve(on group: MultiThreadedEventLoopGroup) async throws {
        let storage: StoreStorage
        let schemas: ClientSchemas
        do {
            // A gap in the app's migrations stops it before it touches any stored data.
            try App.validateSchema()
            schemas = try ClientSchemas(app: App.self, minimum: configuration.minimumClientSchema)
            storage = try await StoreStorage.open(
                configuration: configuration, writeFailures: metrics.journalWriteFailures, logger: logger)
        } catch {
            started.finish(.failure(error))
            throw error
        }
        do {
            try await serve(on: group, storage: storage, schemas: schemas)
        } catch {
            await storage.close(logger: logger)
            throw error
        }
        await storage.close(logger: logger)
    }

    private func serve(on group: MultiThreadedEventLoopGroup, storage: StoreStorage, schemas: ClientSchemas) async throws {
        let engine: SyncEngine<App>
        let server: WebSocketServer
        let presence: (any ClusterPresence)?
        // In a cluster, the stores another node writes send it their dispatches.
        let links = configuration.forwardsDispatches ? storage.clusterSecret.map { ClusterLinks(secret: $0, logger: logger) } : nil
        let stores = makeStoreDirectory(storage: storage, links: links, group: group)
        do {
            // `main` is opened here, the others on demand.
            let journal: any Journal
            (engine, journal) = try await stores.openMain()
            presence = (journal as? any SharedJournal)?.clusterPresence
            do {
                server = try makeWebSocketServer(engine: engine, stores: stores, journal: journal, schemas: schemas, group: group)
            } catch {
                await stores.shutdown()
                throw error
            }
        } catch {
            started.finish(.failure(error))
            throw error
        }
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await stores.run() }
            group.addTask { try await server.run() }
            let address: SocketAddress
            do {
                address = try await server.waitUntilStarted()
            } catch {
                started.finish(.failure(error))
                await stores.shutdown()
                throw error
            }
            started.finish(.success(address))
            if let advertised = configuration.nodeAddress ?? address.port.map({ Self.clusterAddress(host: configuration.host, port: $0) }) {
                stores.storage.advertise(address: advertised)
            }
            logger.info("listening", metadata: ["address": "\(address)", "epoch": "\(engine.epoch)", "rev": "\(engine.revision)"])
            await withDiscardingTaskGroup { lifetime in
                // The node's presence ends (its sessions leave) before the engine's last batch.
                if let presence {
                    let services = ServiceGroup(configuration: ServiceGroupConfiguration(
                        services: [.init(
                            service: ClusterPresenceService(presence: presence, engine: engine),
                            successTerminationBehavior: .gracefullyShutdownGroup)],
                        logger: logger))
                    let logger = logger
                    lifetime.addTask {
                        do {
                            try await services.run()
                        } catch {
                            logger.error("the cluster presence service failed", metadata: ["error": "\(error)"])
                        }
                    }
                }
                // Returns on graceful shutdown; throws CancellationError when cancelled: shut down the same way.
                do {
                    try await gracefulShutdown()
                } catch {
                    logger.info("cancelled: shutting down")
                }
                stopping.store(true, ordering: .releasing)
            }
            logger.info("shutting down: flushing the stores")
            await stores.shutdown()
            await links?.close()
            eventStreams.finishAll()
            server.shutdown()
        }
        logger.info("stopped")
    }

    /// The server's stores: journals from `storage`, an engine each.
    private func makeStoreDirectory(storage: StoreStorage, links: ClusterLinks?, group: any EventLoopGroup) -> StoreDirectory<App> {
        StoreDirectory<App>(
            configuration: configuration.stores, storage: storage,
            footprint: storage.footprint, metrics: metrics, logger: logger
        ) { [configuration, middleware, metrics, logger] store, journal in
            var engineConfiguration = configuration.engine
            engineConfiguration.store = store
            engineConfiguration.links = links
            var logger = logger
            if !store.isMain { logger[metadataKey: "store"] = "\(store)" }
            let engine = try await SyncEngine<App>(
                journal: journal, configuration: engineConfiguration, middleware: middleware, metrics: metrics, logger: logger,
                eventLoops: group)
            // In a cluster: the sessions that nodes gone meanwhile left in the store's presence leave now.
            if let shared = journal as? any SharedJournal, shared.clusterPresence != nil {
                let departed = await shared.sessionsOfDepartedNodes()
                if !departed.isEmpty {
                    logger.info("removing the sessions of departed cluster nodes", metadata: ["sessions": "\(departed.count)"])
                    await engine.removeSessions(departed)
                }
            }
            return engine
        }
    }

    /// Where the other nodes of a cluster reach this one: the host it is
    /// bound to, `127.0.0.1` when bound to every address (a cluster on one
    /// machine; an address other machines reach comes with a later flag).
    private static func clusterAddress(host: String, port: Int) -> String {
        let reachable = ["0.0.0.0", "::", ""].contains(host) ? "127.0.0.1" : host
        return reachable.contains(":") ? "[\(reachable)]:\(port)" : "\(reachable):\(port)"
    }

    /// Delays everything sent on `channel` by `latency` (``StateSyncServerConfiguration/injectedLatency``);
    /// called on the channel's event loop as its WebSocket handler is installed.
    private static func injectLatency(_ latency: Duration, into channel: any Channel) {
        // Fails only when the connection has closed already: nothing to delay then.
        try? channel.pipeline.syncOperations.addHandler(InjectedLatencyHandler(latency: latency.timeAmount), position: .first)
    }

    private func makeWebSocketServer(
        engine: SyncEngine<App>, stores: StoreDirectory<App>, journal: any Journal, schemas: ClientSchemas, group: any EventLoopGroup
    ) throws -> WebSocketServer {
        let session = configuration.session
        // In a cluster, session ids name their node: unique across nodes, and
        // a presence entry says whose it is (`n-3fa2c19b0a1d-s-12`).
        let sessionPrefix = (journal as? any SharedJournal)?.nodeSessionPrefix ?? ""
        var webSocket = WebSocketConfiguration()
        webSocket.maxMessageSize = session.maxMessageBytes
        // A message may come as one frame: the frame limit is the message limit.
        webSocket.maxFrameSize = session.maxMessageBytes
        webSocket.pingInterval = session.pingInterval.map(\.timeAmount)
        webSocket.idleTimeout = session.idleTimeout.map(\.timeAmount)
        webSocket.maxPingsPerSecond = session.maxPingsPerSecond
        let frames = SharedFramesPerLoop(group: group, compress: webSocket.compression != nil, logger: logger)
        let limits = configuration.connections
        let joins = AddressRateLimiter(
            ratePerSecond: limits.joinsPerSecondPerAddress, burst: limits.joinBurstPerAddress,
            capacity: limits.maxTrackedAddresses)
        var options = WebSocketChannelOptions()
        options.outboundHighWatermark = session.outboundHighWaterMark
        options.outboundLowWatermark = max(1, session.outboundHighWaterMark / 4)
        options.maxOutboundBytes = session.maxOutboundBytes
        // Messages are stamped as they arrive, by the clock sessions measure rates with.
        options.arrivalClock = ArrivalClock(configuration.sessionClock)
        let backlog = (limit: options.inboundHighWatermark, resume: options.inboundLowWatermark)

        let settings = SessionSettings(configuration: session, authentication: configuration.authentication, schemas: schemas)
        let sync = WebSocketRoute(
            path: "/sync",
            handshake: WebSocketServerHandshake(subprotocols: [ProtocolVersion.subprotocol], rejectsUnknownSubprotocols: true),
            configuration: webSocket, options: options,
            handler: .eventLoopPerConnection { [self] outbound in
                if let latency = configuration.injectedLatency {
                    Self.injectLatency(latency, into: outbound.channel)
                }
                let number = sessionCounter.add(1, ordering: .relaxed).newValue
                return SyncSession(
                    id: "\(sessionPrefix)s-\(number)", outbound: outbound, engine: engine, stores: stores, metrics: metrics,
                    frames: frames.frames(for: outbound.eventLoop), joins: joins, logger: logger,
                    settings: settings, clock: configuration.sessionClock,
                    backlog: backlog,
                    holdBeforeEachMessage: configuration.sessionWillHandleMessage)
            })
        var routes = [sync]
        if stores.storage.clusterSecret != nil {
            let writes = ForwardedWrites(main: engine, stores: stores, schemas: schemas, logger: logger)
            routes.append(WebSocketRoute(
                path: ClusterLinks.path,
                handshake: WebSocketServerHandshake(subprotocols: [ClusterLinks.subprotocol], rejectsUnknownSubprotocols: true),
                configuration: webSocket, handler: writes.serve))
        }
        if configuration.echo {
            routes.append(WebSocketRoute(path: "/echo", configuration: webSocket, handler: .eventLoop(WebSocketEchoHandler())))
        }
        let health = ServerHTTPRoutes.health { [self] in
            var status = HealthStatus(
                stopping: stopping.load(ordering: .acquiring), stopReason: engine.stopReason ?? stores.storage.sharedFailure,
                fault: journal.writeFault,
                epoch: engine.epoch, rev: engine.revision, connections: webSocketServer.withLock { $0?.connectionCount ?? 0 })
            status.writer = engine.writer?.name
            return status
        }
        var serverConfiguration = WebSocketServerConfiguration(
            host: configuration.host, port: configuration.port, tls: configuration.tls,
            requestTimeout: limits.requestTimeout.timeAmount, keepAliveTimeout: limits.keepAliveTimeout.timeAmount,
            maxConnections: limits.maxConnections, maxConnectionsPerAddress: limits.maxConnectionsPerAddress)
        // An HTTP dispatch is a message: the same size limit (413 above it).
        serverConfiguration.maxRequestBodySize = session.maxMessageBytes
        let acceptPauses = AcceptPauseReport(logger: logger, counter: metrics.acceptsPaused)
        serverConfiguration.acceptPaused = { acceptPauses.paused($0) }
        if let limit = OpenFileLimit.current, let shortfall = OpenFileLimit.shortfall(maxConnections: limits.maxConnections, limit: limit) {
            logger.warning("\(shortfall)")
        }
        let policy = configuration.requestPolicy.filter(bindHost: configuration.host)
        if let secret = stores.storage.clusterSecret {
            let cluster = ClusterLinkAuthorization(secret: secret)
            serverConfiguration.requestFilter = { head in cluster.refusal(of: head) ?? policy(head) }
        } else {
            serverConfiguration.requestFilter = policy
        }
        let metricsRoutes = configuration.metricsExposition.map {
            [ServerHTTPRoutes.metrics($0, adminOnly: configuration.metricsAdminOnly, authentication: configuration.authentication)]
        } ?? []
        // One access for every HTTP API route: one rate limit per client address across them.
        let access = HTTPAPIAccess(
            authentication: configuration.authentication, session: session, schemas: schemas, clock: configuration.sessionClock)
        let api = HTTPAPIRoutes(
            engine: engine, stores: stores, access: access, streams: eventStreams,
            nextSessionID: { [self] in "h-\(sessionCounter.add(1, ordering: .relaxed).newValue)" })
        let storeAdmin = StoreAdminRoutes(stores: stores, access: access)
        let devtools = DevtoolsRoutes(
            engine: engine, stores: stores,
            access: .byRole(authentication: configuration.authentication, readPermissions: configuration.session.readPermissions),
            limit: DevtoolsRequestLimit(maximum: configuration.maxDevtoolsRequests))
        let pages = try [
            WebPage(path: "/statesync.js", file: WebClientFiles.file(named: "statesync.js")),
            WebPage(path: "/devtools", file: WebClientFiles.file(named: "devtools.html")),
            WebPage(path: "/devtools.js", file: WebClientFiles.file(named: "devtools.js")),
        ] + configuration.pages
        let server = try WebSocketServer(
            configuration: serverConfiguration,
            routes: routes,
            httpRoutes: [health] + metricsRoutes + api.routes + storeAdmin.routes + devtools.routes + pages.map(ServerHTTPRoutes.page),
            group: group)
        webSocketServer.withLock { $0 = server }
        return server
    }

}
