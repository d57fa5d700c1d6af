import CoreMetrics
import Logging
import NIOCore
import StateSyncCore
import StateSyncProtocol
import WebSocket

/// The driver of one StateSync connection: it feeds each received message
/// to its ``SessionStateMachine``, carries out the decisions (engine calls,
/// replies, closes), and is the engine's ``SessionSink`` for the connection.
///
/// Inbound runs in the connection's task (one per connection, owned by the
/// WebSocket server); outbound frames from the engine are written with
/// ``WebSocketOutbound/write(_:)-(WebSocketMessage)``: no task per message.
/// The engine measures and counts what it sends; the session counts only
/// its own replies and its connection.
final class SyncSession<App: StateSyncApp>: SessionSink {
    /// The session id sent in `welcome`, e.g. `s-12`.
    let id: String
    private let outbound: WebSocketOutbound
    private let engine: SyncEngine<App>
    private let metrics: ServerMetrics
    private let logger: Logger
    private let frames: SharedFrames
    private let joins: JoinLimiter
    private let encoder = MessageEncoder()

    init(
        id: String, outbound: WebSocketOutbound, engine: SyncEngine<App>, metrics: ServerMetrics,
        frames: SharedFrames, joins: JoinLimiter, logger: Logger
    ) {
        self.id = id
        self.joins = joins
        self.frames = frames
        self.outbound = outbound
        self.engine = engine
        self.metrics = metrics
        var logger = logger
        logger[metadataKey: "session"] = "\(id)"
        self.logger = logger
    }

    // MARK: Inbound

    /// Serves the connection until it closes, then leaves the engine.
    ///
    /// The rate limit measures each message at the time it arrived
    /// (``WebSocketReceivedMessage/receivedAt``, stamped on the event loop as
    /// it was read), not when this task gets to it: after a stall, the
    /// backlog of a steady client is not a burst. `clock` gives the time the
    /// session starts at (its full token bucket); it must be the clock that
    /// stamps the connection's messages (``WebSocketChannelOptions/arrivalClock``).
    /// `beforeEachMessage`, when set, is awaited before each message is
    /// handled (tests stall the session with it).
    ///
    /// The connection's task lives as long as the connection, and so does
    /// the largest its async frames ever grew: the work on each message
    /// runs in synchronous, non-inlined methods (``decide(_:with:)``,
    /// ``perform(_:)``), whose temporaries live on the thread's stack, so
    /// that an idle connection keeps a few hundred bytes of frames instead
    /// of kilobytes.
    func run(
        _ inbound: WebSocketInboundMessages, configuration: SessionConfiguration, authentication: SessionAuthentication,
        clock: @Sendable () -> ContinuousClock.Instant, beforeEachMessage: (@Sendable () async -> Void)? = nil
    ) async {
        var machine = SessionStateMachine(configuration: configuration, authentication: authentication, now: clock())
        logger.debug("connection opened")
        var helloTimer = configuration.helloTimeout.map(closeWithoutHello(after:))
        var joined = false
        var messages = inbound.makeAsyncIterator()
        while let received = await messages.nextReceived() {
            // The first message decides: a hello joins, anything else closes.
            helloTimer?.cancel()
            helloTimer = nil
            if let beforeEachMessage { await beforeEachMessage() }
            let action = decide(received, with: &machine)
            if case .join = action { joined = true }
            // Waits only while the engine's queue is full: this connection is
            // then not read (its socket fills) rather than the queue grow.
            if let request = perform(action), engine.submitIfRoom(request, from: id) == nil {
                await engine.submit(request, from: id)
            }
        }
        helloTimer?.cancel()
        // Also when the machine closed the session itself (a persistent rate limit).
        if joined {
            engine.leave(session: id)
            metrics.connections.decrement()
        }
        machine.closed()
        logger.debug("connection closed", metadata: ["status": "\(outbound.closeStatus.map(String.init(describing:)) ?? "none")"])
    }

    /// What the session machine makes of `received` (a join beyond the
    /// address's join rate is refused here).
    @inline(never)
    private func decide(_ received: WebSocketReceivedMessage, with machine: inout SessionStateMachine) -> SessionStateMachine.Action {
        let message = received.message
        logger.trace("received", metadata: ["bytes": "\(message.data.readableBytes)"])
        let action = switch message.kind {
        case .text: machine.received(text: message.data.readableBytesView, now: received.receivedAt)
        case .binary: machine.receivedBinary(byteCount: message.data.readableBytes, now: received.receivedAt)
        }
        if case .join = action, let refusal = joinRefusal(now: received.receivedAt) {
            machine.closed()
            return refusal
        }
        return action
    }

    /// Closes the connection with 1008 after `timeout` unless cancelled (by the first message).
    private func closeWithoutHello(after timeout: Duration) -> Scheduled<Void> {
        let seconds = timeout.components.seconds
        let reason = timeout == .seconds(seconds) ? "no hello within \(seconds) s" : "no hello within \(timeout)"
        return outbound.eventLoop.scheduleTask(in: timeout.timeAmount) { [outbound, logger] in
            logger.debug("closing", metadata: ["reason": "\(reason)"])
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

    /// Carries out `action`, but for a request, which it returns for the
    /// caller to submit to the engine (waiting while the engine is full).
    @inline(never)
    private func perform(_ action: SessionStateMachine.Action) -> SessionRequest? {
        switch action {
        case let .join(clientID, name, role):
            let info = SessionInfo(id: id, name: name.flatMap { $0.isEmpty ? nil : $0 } ?? id)
            let welcome = engine.join(session: info, clientID: clientID, role: role, sink: self)
            reply(.welcome(session: id, epoch: welcome.epoch, rev: welcome.rev, role: role, server: StateSyncServerInfo.name))
            metrics.connections.increment()
            logger.debug("joined", metadata: ["role": "\(role.rawValue)", "client": "\(clientID ?? "-")"])
        case .request(let request):
            return request
        case .reply(let message):
            reply(message)
        case let .replyAndClose(message, closeCode):
            reply(message)
            logger.debug("closing", metadata: ["code": "\(closeCode)", "reason": "\(message.type)"])
            outbound.close(code: WebSocketCloseCode(code: closeCode), reason: "", promise: nil)
        case .ignore:
            break
        }
        return nil
    }

    /// Writes a message of the session layer itself (welcome, errors, its own rejects).
    private func reply(_ message: ServerMessage) {
        let bytes = encoder.encode(message)
        metrics.bytesSent.increment(by: Int64(bytes.count))
        outbound.write(WebSocketMessage(kind: .text, data: ByteBuffer(bytes: bytes)))
    }

    // MARK: SessionSink

    /// Writes an engine message; the same array sent to many sessions is framed once (``SharedFrames``).
    func send(_ message: [UInt8]) {
        outbound.write(frames.prepared(message))
    }

    /// The connection's event loop: the engine's fan-out for this session runs there.
    var eventLoop: (any EventLoop)? { outbound.eventLoop }

    /// Whether the connection's outbound buffer is below its high-water mark
    /// (``SessionConfiguration/outboundHighWaterMark``).
    var isWritable: Bool { outbound.isWritable }

    /// Calls `drained` once the outbound buffer is below the low-water mark;
    /// never when the connection closes first.
    func notifyWhenWritable(_ drained: @escaping @Sendable () -> Void) {
        logger.debug("slow consumer: waiting for the outbound buffer to drain")
        outbound.whenWritable().whenComplete { [logger] result in
            switch result {
            case .success:
                logger.debug("drained")
                drained()
            case .failure(let error):
                logger.debug("closed while slow", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Closes the connection with 1008 (policy violation) and `reason`.
    func close(reason: String) {
        outbound.close(code: .policyViolation, reason: reason, promise: nil)
    }
}
