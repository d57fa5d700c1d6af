import CoreMetrics
import Logging
import NIOCore
import StateSyncCore
import StateSyncProtocol
import Synchronization
import WebSocket

/// The driver of one StateSync connection: it feeds each received message
/// to its ``SessionStateMachine``, carries out the decisions (engine calls,
/// replies, closes), and is the engine's ``SessionSink`` for the connection.
///
/// Inbound runs in the connection's task (one per connection, owned by the
/// WebSocket server); outbound frames from the engine are written with
/// ``WebSocketOutbound/write(_:)-(WebSocketMessage)``: no task per message.
final class SyncSession<App: StateSyncApp>: SessionSink {
    /// The session id sent in `welcome`, e.g. `s-12`.
    let id: String
    private let outbound: WebSocketOutbound
    private let engine: SyncEngine<App>
    private let metrics: ServerMetrics
    private let logger: Logger
    private let highWaterMark: Int
    private let frames: SharedFrames
    private let dispatchTimes = Mutex<[String: ContinuousClock.Instant]>([:])
    private let watchingDrain = Atomic<Bool>(false)
    private let decoder = MessageDecoder()
    private let encoder = MessageEncoder()

    init(
        id: String, outbound: WebSocketOutbound, engine: SyncEngine<App>, metrics: ServerMetrics,
        frames: SharedFrames, highWaterMark: Int, logger: Logger
    ) {
        self.id = id
        self.frames = frames
        self.outbound = outbound
        self.engine = engine
        self.metrics = metrics
        self.highWaterMark = highWaterMark
        var logger = logger
        logger[metadataKey: "session"] = "\(id)"
        self.logger = logger
    }

    // MARK: Inbound

    /// Serves the connection until it closes, then leaves the engine.
    /// `clock` gives the time the rate limit is measured by.
    func run(
        _ inbound: WebSocketInboundMessages, configuration: SessionConfiguration, authentication: SessionAuthentication,
        clock: @Sendable () -> ContinuousClock.Instant
    ) async {
        var machine = SessionStateMachine(configuration: configuration, authentication: authentication, now: clock())
        logger.debug("connection opened")
        var joined = false
        for await message in inbound {
            logger.trace("received", metadata: ["bytes": "\(message.data.readableBytes)"])
            let action = switch message.kind {
            case .text: machine.received(text: message.data.readableBytesView, now: clock())
            case .binary: machine.receivedBinary(now: clock())
            }
            if case .join = action { joined = true }
            perform(action)
        }
        // Also when the machine closed the session itself (a persistent rate limit).
        if joined {
            engine.leave(session: id)
            metrics.connections.decrement()
        }
        machine.closed()
        logger.debug("connection closed", metadata: ["status": "\(outbound.closeStatus.map(String.init(describing:)) ?? "none")"])
    }

    private func perform(_ action: SessionStateMachine.Action) {
        switch action {
        case let .join(clientID, name, role):
            let info = SessionInfo(id: id, name: name.flatMap { $0.isEmpty ? nil : $0 } ?? id)
            let welcome = engine.join(session: info, clientID: clientID, role: role, sink: self)
            reply(.welcome(session: id, epoch: welcome.epoch, rev: welcome.rev, role: role, server: StateSyncServerInfo.name))
            metrics.connections.increment()
            logger.debug("joined", metadata: ["role": "\(role.rawValue)", "client": "\(clientID ?? "-")"])
        case let .subscribe(subscription, path, since):
            engine.subscribe(session: id, id: subscription, path: path, since: since)
        case .unsubscribe(let subscription):
            engine.unsubscribe(session: id, id: subscription)
        case let .get(request, path):
            engine.get(session: id, id: request, path: path)
        case let .dispatch(request, action):
            dispatchTimes.withLock { $0[request] = .now }
            engine.dispatch(session: id, id: request, action: action)
        case .reply(let message):
            reply(message)
        case let .replyAndClose(message, closeCode):
            reply(message)
            logger.debug("closing", metadata: ["code": "\(closeCode)", "reason": "\(message.type)"])
            outbound.close(code: WebSocketCloseCode(code: closeCode), reason: "", promise: nil)
        case .ignore:
            break
        }
    }

    /// Writes a message of the session layer itself (welcome, errors, its own rejects).
    private func reply(_ message: ServerMessage) {
        let bytes = encoder.encode(message)
        count(bytes)
        outbound.write(WebSocketMessage(kind: .text, data: ByteBuffer(bytes: bytes)))
    }

    private func count(_ message: [UInt8]) {
        metrics.bytesSent.increment(by: Int64(message.count))
        switch ServerFrameKind(message) {
        case .patch: metrics.patchesSent.increment()
        case .ack: answered(message, counter: metrics.actionsAccepted)
        case .reject: answered(message, counter: metrics.actionsRejected)
        case .other: break
        }
    }

    // MARK: SessionSink

    /// Writes an engine message; the same array sent to many sessions is framed once (``SharedFrames``).
    func send(_ message: [UInt8]) {
        count(message)
        outbound.write(frames.prepared(message))
    }

    /// `0` while the connection is writable; above the engine's high-water
    /// mark while it is not. The channel knows its exact backlog only on its
    /// event loop, so the sink reports the one fact the engine acts on, and
    /// the channel's own high-water mark is set to the engine's. When it
    /// reports "above", it starts watching for the drain and then calls
    /// ``SyncEngine/sessionDrained(session:)``.
    var bufferedBytes: Int {
        if outbound.isWritable { return 0 }
        watchForDrain()
        return highWaterMark + 1
    }

    private func watchForDrain() {
        guard watchingDrain.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return
        }
        metrics.slowConsumers.increment()
        logger.debug("slow consumer: waiting for the outbound buffer to drain")
        outbound.whenWritable().whenComplete { [self] result in
            watchingDrain.store(false, ordering: .releasing)
            switch result {
            case .success:
                logger.debug("drained")
                engine.sessionDrained(session: id)
            case .failure(let error):
                logger.debug("closed while slow", metadata: ["error": "\(error)"])
            }
        }
    }

    private func answered(_ frame: [UInt8], counter: Counter) {
        counter.increment()
        guard let request = answeredID(frame), let start = dispatchTimes.withLock({ $0.removeValue(forKey: request) }) else {
            return
        }
        let elapsed = start.duration(to: .now).components
        metrics.dispatchToAck.recordNanoseconds(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
    }

    /// The `id` of an `ack` or `reject` frame.
    private func answeredID(_ frame: [UInt8]) -> String? {
        do {
            switch try decoder.decodeServerMessage(frame) {
            case .ack(let id, _), .reject(let id, _, _): return id
            default: return nil
            }
        } catch {
            logger.warning("an answer frame does not decode", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
