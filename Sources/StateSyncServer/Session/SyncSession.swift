import CoreMetrics
import Logging
import NIOCore
import StateSyncCore
import StateSyncProtocol
import WebSocket

/// The driver of one connection and its ``SessionSink``: feeds each message to
/// its ``SessionStateMachine`` on the connection's event loop (no task per
/// connection). While it waits, messages queue up to `backlogLimit`, and the
/// socket is not read until the backlog is down to `backlogResume`. ``Local``
/// is bound to that loop; the sink methods the fan-out calls touch only constants.
final class SyncSession<App: StateSyncApp>: SessionSink, WebSocketEventLoopHandler, Sendable {
    /// What a session awaits before it handles a message: it is given the
    /// function that lets it go on (tests stall sessions with it).
    typealias MessageHold = @Sendable (_ proceed: @escaping @Sendable () -> Void) -> Void

    /// The session id sent in `welcome`, e.g. `s-12`.
    let id: String
    let outbound: WebSocketOutbound
    let engine: SyncEngine<App>
    let stores: StoreDirectory<App>
    /// The two of the server's metrics a session records (not all of
    /// ``ServerMetrics``: every idle connection would hold its twenty handles).
    private let connections: Meter
    private let bytesSent: Counter
    let logger: Logger
    let frames: SharedFrames
    private let joins: AddressRateLimiter
    private let holdBeforeEachMessage: MessageHold?
    private let backlogLimit: Int
    private let backlogResume: Int

    /// What the session changes as it goes, used only on the connection's event loop.
    struct Local {
        var machine: SessionStateMachine
        /// Closes the connection when `hello` is late
        /// (``SessionConfiguration/helloTimeout``), later when the token expires.
        var closeTimer: Scheduled<Void>?
        /// The first message arrived: ``closeTimer`` is no longer the hello timeout.
        var firstMessageSeen = false
        /// `hello` was accepted: the connection is counted.
        var joined = false
        /// The session is in `main`'s engine (its token grants a role there).
        var inMain = false
        /// Who the session is, from `hello`: what it joins each store with.
        var identity: (info: SessionInfo, clientID: String?)?
        /// The stores other than `main` the session is in.
        var engines: [StoreName: SyncEngine<App>] = [:]
        /// A message or a request is in progress (waiting for the engine's room
        /// or for ``holdBeforeEachMessage``): later messages go to `backlog`.
        var waiting = false
        var backlog: [WebSocketReceivedMessage] = []
        var readingHeld = false
        var connectionClosed = false
        var finished = false
    }

    let local: NIOLoopBoundBox<Local>

    /// A session for the connection of `outbound`, waiting for `hello`. `clock`
    /// must be the one that stamps the connection's messages
    /// (``WebSocketChannelOptions/arrivalClock``).
    init(
        id: String, outbound: WebSocketOutbound, engine: SyncEngine<App>, stores: StoreDirectory<App>, metrics: ServerMetrics,
        frames: SharedFrames, joins: AddressRateLimiter, logger: Logger,
        settings: SessionSettings,
        clock: @Sendable () -> ContinuousClock.Instant, backlog: (limit: Int, resume: Int),
        holdBeforeEachMessage: MessageHold? = nil
    ) {
        self.id = id
        self.joins = joins
        self.frames = frames
        self.outbound = outbound
        self.engine = engine
        self.stores = stores
        connections = metrics.connections
        bytesSent = metrics.bytesSent
        self.logger = logger
        self.holdBeforeEachMessage = holdBeforeEachMessage
        self.backlogLimit = max(1, backlog.limit)
        self.backlogResume = min(max(0, backlog.resume), self.backlogLimit - 1)
        let machine = SessionStateMachine(settings: settings, now: clock())
        let helloTimer = settings.configuration.helloTimeout.map { timeout in
            Self.closeWithoutHello(outbound, after: timeout, logger: logger, id: id)
        }
        local = NIOLoopBoundBox.makeBoxSendingValue(
            Local(machine: machine, closeTimer: helloTimer), as: Local.self, eventLoop: outbound.eventLoop)
    }

    // MARK: Inbound (on the connection's event loop)

    /// Logs the opening (the hello timer started with the session).
    func webSocketOpened(_ outbound: WebSocketOutbound) {
        logger.debug("connection opened", metadata: ["session": "\(id)"])
    }

    /// Handles `received` now, or keeps it in the backlog while the session
    /// waits. The rate limit uses its arrival time, so a drained backlog is not a burst.
    func webSocket(_ outbound: WebSocketOutbound, received: WebSocketReceivedMessage) {
        guard !local.value.waiting else {
            local.value.backlog.append(received)
            if local.value.backlog.count >= backlogLimit, !local.value.readingHeld {
                local.value.readingHeld = true
                outbound.holdReading()
            }
            return
        }
        handle(received)
    }

    /// Every message comes with its arrival time (``webSocket(_:received:)-(_,WebSocketReceivedMessage)``);
    /// one without is handled as arrived now.
    func webSocket(_ outbound: WebSocketOutbound, received message: WebSocketMessage) {
        webSocket(outbound, received: WebSocketReceivedMessage(message: message, receivedAt: .now))
    }

    /// Leaves the engine once the messages received before the close are handled.
    func webSocketClosed(_ outbound: WebSocketOutbound, status: WebSocketCloseStatus) {
        local.value.connectionClosed = true
        if !local.value.waiting { finish() }
    }

    private func handle(_ received: WebSocketReceivedMessage) {
        // The first message decides: a hello joins, anything else closes.
        if !local.value.firstMessageSeen {
            local.value.firstMessageSeen = true
            local.value.closeTimer?.cancel()
            local.value.closeTimer = nil
        }
        guard let holdBeforeEachMessage else {
            process(received)
            return
        }
        local.value.waiting = true
        let eventLoop = outbound.eventLoop
        holdBeforeEachMessage { [self] in
            eventLoop.execute { [self] in
                local.value.waiting = false
                process(received)
                handleBacklog()
            }
        }
    }

    private func process(_ received: WebSocketReceivedMessage) {
        carryOut(decide(received))
    }

    /// Carries out `action`: a request goes to its store's engine (entering
    /// the store first when the session is not in it).
    func carryOut(_ action: SessionStateMachine.Action) {
        guard let (request, store, epoch, role) = perform(action) else { return }
        if store.isMain {
            submit(Self.resuming(request, in: epoch, of: engine), to: engine)
        } else if let engine = local.value.engines[store] {
            submit(Self.resuming(request, in: epoch, of: engine), to: engine)
        } else {
            enter(store, thenSubmit: request, epoch: epoch, role: role)
        }
    }

    /// `request`, without its `since` when it resumes in an `epoch` that is
    /// not `engine`'s: a revision of another history means nothing here,
    /// and the client gets a snapshot instead of a patch it would misapply.
    private static func resuming(_ request: SessionRequest, in epoch: String?, of engine: SyncEngine<App>) -> SessionRequest {
        guard case let .subscribe(id, path, since) = request, since != nil, let epoch, epoch != engine.epoch else { return request }
        return .subscribe(id: id, path: path, since: nil)
    }

    /// Queues `request` for `engine`; while its queue is full the session
    /// waits (and its backlog fills, then its socket) rather than the queue grow.
    func submit(_ request: SessionRequest, to engine: SyncEngine<App>) {
        guard engine.submitIfRoom(request, from: id) == nil else { return }
        local.value.waiting = true
        let eventLoop = outbound.eventLoop
        engine.whenRoomForRequests { [self] in
            eventLoop.execute { [self] in
                local.value.waiting = false
                submit(request, to: engine)
                handleBacklog()
            }
        }
    }

    /// Joins `store`, opening it when needed, then submits `request` there; the
    /// session waits meanwhile so its messages keep their order.
    private func enter(_ store: StoreName, thenSubmit request: SessionRequest, epoch: String?, role: Role) {
        // Requests come only after hello, which set the identity.
        guard let identity = local.value.identity else { return }
        local.value.waiting = true
        let eventLoop = outbound.eventLoop
        let address = outbound.channel.remoteAddress.map(ClientAddressKey.init)
        stores.acquire(store, role: role, id: request.id, from: address) { [self] result in
            eventLoop.execute { [self] in
                local.value.waiting = false
                switch result {
                case .success(let engine):
                    if local.value.finished {
                        stores.release(store)
                        return
                    }
                    if let stored = engine.newerStoredSchema {
                        // This node no longer serves the store: the client is sent to one that does.
                        stores.release(store)
                        _ = perform(.replyAndClose(
                            .error(.storeSchemaNewer(store, stored: stored, served: App.schemaVersion, id: request.id)),
                            closeCode: CloseCode.tryAgainLater))
                        return
                    }
                    local.value.engines[store] = engine
                    _ = engine.join(session: identity.info, clientID: identity.clientID, role: role, sink: self)
                    logger.debug("entered a store", metadata: ["session": "\(id)", "store": "\(store)"])
                    submit(Self.resuming(request, in: epoch, of: engine), to: engine)
                case .failure(let error):
                    reply(.error(error.relating(to: request.id)), store: store)
                }
                handleBacklog()
            }
        }
    }

    /// Handles the kept messages in order until the session waits again;
    /// reads again once the backlog is short; leaves when the connection
    /// closed meanwhile and nothing is left.
    func handleBacklog() {
        var handled = 0
        while !local.value.waiting, handled < local.value.backlog.count {
            let next = local.value.backlog[handled]
            handled += 1
            handle(next)
        }
        local.value.backlog.removeFirst(handled)
        if local.value.readingHeld, local.value.backlog.count <= backlogResume {
            local.value.readingHeld = false
            outbound.resumeReading()
        }
        if local.value.connectionClosed, !local.value.waiting { finish() }
    }

    /// The connection closed and every message it received is handled.
    private func finish() {
        guard !local.value.finished else { return }
        local.value.finished = true
        local.value.closeTimer?.cancel()
        local.value.closeTimer = nil
        // Also when the machine closed the session itself (a persistent rate limit).
        if local.value.joined { connections.decrement() }
        if local.value.inMain { engine.leave(session: id) }
        for (store, engine) in local.value.engines {
            engine.leave(session: id)
            stores.release(store)
        }
        local.value.engines = [:]
        local.value.machine.closed()
        logger.debug(
            "connection closed",
            metadata: ["session": "\(id)", "status": "\(outbound.closeStatus.map(String.init(describing:)) ?? "none")"])
    }

    /// What the session machine makes of `received` (a join beyond the
    /// address's join rate is refused here).
    private func decide(_ received: WebSocketReceivedMessage) -> SessionStateMachine.Action {
        let message = received.message
        logger.trace("received", metadata: ["session": "\(id)", "bytes": "\(message.data.readableBytes)"])
        let action = switch message.kind {
        case .text: local.value.machine.received(text: message.data.readableBytesView, now: received.receivedAt)
        case .binary: local.value.machine.receivedBinary(byteCount: message.data.readableBytes, now: received.receivedAt)
        }
        let isHello = switch action {
        case .join: true
        case .verify: !local.value.joined
        default: false
        }
        if isHello, let refusal = joinRefusal(now: received.receivedAt) {
            local.value.machine.closed()
            return refusal
        }
        return action
    }

    /// Closes `outbound`'s connection with 1008 after `timeout` unless cancelled (by the first message).
    private static func closeWithoutHello(
        _ outbound: WebSocketOutbound, after timeout: Duration, logger: Logger, id: String
    ) -> Scheduled<Void> {
        let seconds = timeout.components.seconds
        let reason = timeout == .seconds(seconds) ? "no hello within \(seconds) s" : "no hello within \(timeout)"
        return outbound.eventLoop.scheduleTask(in: timeout.timeAmount) { [outbound, logger, id] in
            logger.debug("closing", metadata: ["session": "\(id)", "reason": "\(reason)"])
            outbound.close(code: .policyViolation, reason: reason, promise: nil)
        }
    }

    /// The refusal of a `hello` beyond its address's join rate, or `nil` to let it join.
    private func joinRefusal(now: ContinuousClock.Instant) -> SessionStateMachine.Action? {
        guard let address = outbound.channel.remoteAddress.map(ClientAddressKey.init),
              !joins.admit(address, now: now)
        else { return nil }
        let message = "too many joins from \(address): at most \(joins.rate) per second"
        return .replyAndClose(.error(id: nil, code: .rateLimited, message: message), closeCode: 1008)
    }

    /// Carries out `action`, but for a request, which it returns with its
    /// store for the caller to submit to that store's engine.
    private func perform(_ action: SessionStateMachine.Action) -> (SessionRequest, StoreName, epoch: String?, role: Role)? {
        switch action {
        case let .join(clientID, name, access):
            if access.role(in: .main) != nil, let stored = engine.newerStoredSchema {
                // This node no longer serves main: the client is sent to one that does.
                return perform(.replyAndClose(
                    .error(.storeSchemaNewer(.main, stored: stored, served: App.schemaVersion)), closeCode: CloseCode.tryAgainLater))
            }
            let info = SessionInfo(id: id, name: name.flatMap { $0.isEmpty ? nil : $0 } ?? id)
            local.value.identity = (info, clientID)
            local.value.joined = true
            let role = access.role(in: .main)
            var welcome = EngineWelcome(epoch: engine.epoch, rev: engine.revision)
            if let role {
                welcome = engine.join(session: info, clientID: clientID, role: role, sink: self)
                local.value.inMain = true
            }
            reply(.welcome(session: id, epoch: welcome.epoch, rev: welcome.rev, role: role, server: StateSyncServerInfo.name))
            connections.increment()
            scheduleExpiry(of: access)
            logger.debug("joined", metadata: [
                "session": "\(id)", "role": "\(role?.rawValue ?? "none")", "client": "\(clientID ?? "-")",
                "subject": "\(access.subject ?? "-")"])
        case let .verify(token, jwt):
            verify(token, by: jwt)
        case let .reauthorize(authID, access, ended):
            reauthorize(access, endingSubscriptions: ended)
            reply(.authorized(id: authID, role: access.role(in: .main), expires: access.expires.map(Self.unixSeconds)))
        case let .request(request, store, epoch, role):
            return (request, store, epoch, role)
        case let .reply(message, store):
            reply(message, store: store)
        case let .replyAndClose(message, closeCode):
            reply(message)
            logger.debug("closing", metadata: ["session": "\(id)", "code": "\(closeCode)", "reason": "\(message.type)"])
            outbound.close(code: WebSocketCloseCode(code: closeCode), reason: "", promise: nil)
        case .ignore:
            break
        }
        return nil
    }

    /// Writes a message of the session layer itself (welcome, errors, its
    /// own rejects), naming `store` in a store-scoped one unless it is `main`.
    func reply(_ message: ServerMessage, store: StoreName = .main) {
        let bytes = MessageEncoder(store: store).encode(message)
        bytesSent.increment(by: Int64(bytes.count))
        outbound.write(WebSocketMessage(kind: .text, data: ByteBuffer(bytes: bytes)))
    }
}
