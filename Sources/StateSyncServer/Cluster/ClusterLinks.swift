import Logging
import NIOCore
import NIOHTTP1
import StateSyncCore
import StateSyncProtocol
import Synchronization
import WebSocket

/// A dispatch of one of this node's sessions, on its way to the node that
/// writes its store (docs/PROTOCOL.md, "Between the nodes of a cluster").
struct ForwardedDispatch: Sendable {
    let store: StoreName
    let session: SessionInfo
    let clientID: String
    let role: Role
    let id: String
    let action: JSONObject
    /// The sending node's app schema version, which `action` is of.
    let schemaVersion: Int

    /// The `forward` message.
    var message: String {
        JSONSerializer().string(for: .object([
            "type": "forward", "store": .string(store.rawValue), "session": .string(session.id), "name": .string(session.name),
            "clientId": .string(clientID), "role": .string(role.rawValue), "id": .string(id), "action": .object(action),
            "schemaVersion": .integer(Int64(schemaVersion)),
        ]))
    }
}

/// What became of a forwarded dispatch.
enum ForwardOutcome: Sendable {
    /// The writer answered: `ack` at `revision`.
    case accepted(revision: UInt64)
    /// The writer answered `reject`.
    case rejected(code: String, message: String)
    /// No answer will come (the link could not open, or closed first): the
    /// writer may or may not have applied it.
    case failed(String)
}

/// What became of a dispatch handed to ``ClusterLinks/forward(_:to:onLink:answered:)``.
enum ForwardSending: Equatable {
    /// Written to link number `link`, in order after what was written to it before.
    case sent(link: UInt64)
    /// Not sent, for `reason`: it will not be answered.
    case refused(String)
}

/// This node's links to the writers of stores it does not write: one ordered
/// WebSocket per writer address, opened on demand. Each dispatch is answered
/// once: by the writer, or ``ForwardOutcome/failed(_:)`` on close or ``answerTimeout``.
final class ClusterLinks: Sendable {
    /// The path of the links on the writer's listener.
    static let path = "/cluster"
    /// The subprotocol of the links.
    static let subprotocol = "statesync-cluster.v1"
    /// How long a dispatch waits for the writer's answer: longer than a
    /// lease lasts past its last renewal (1.2 s), so that by then another
    /// node holds the lease of a writer that stopped answering.
    static let answerTimeout = Duration.seconds(2)
    /// Dispatches a link may have waiting for their answers: beyond, a
    /// dispatch fails at once (its engine writes it itself).
    static let maxPending = 65_536

    /// A pending dispatch's key: its store, session and id.
    private struct Key: Hashable {
        let store: String
        let session: String
        let id: String
    }

    /// One link's state.
    private struct Link {
        /// Which opening of the link to its address this is.
        let number: UInt64
        var connection: WebSocketConnection?
        /// Messages written while the link opens, in order.
        var queued: [String] = []
        var pending: [Key: (answered: @Sendable (ForwardOutcome) -> Void, sent: ContinuousClock.Instant)] = [:]
    }

    private let secret: String
    private let logger: Logger
    private let links = Mutex<[String: Link]>([:])
    private let tasks = Mutex<[String: Task<Void, Never>]>([:])
    /// The number of the next link opened.
    private let nextLink = Atomic<UInt64>(1)

    /// Links authenticated with the cluster's `secret`.
    init(secret: String, logger: Logger) {
        self.secret = secret
        self.logger = logger
    }

    /// Sends `dispatch` to the writer at `address`, on link `onLink` when given, so
    /// it cannot overtake its session's earlier ones. `answered` is called once,
    /// from any thread; a refused dispatch is not answered.
    func forward(
        _ dispatch: ForwardedDispatch, to address: String, onLink expected: UInt64?,
        answered: @escaping @Sendable (ForwardOutcome) -> Void
    ) -> ForwardSending {
        let key = Key(store: dispatch.store.rawValue, session: dispatch.session.id, id: dispatch.id)
        let message = dispatch.message
        enum Next { case refuse(String), write(WebSocketConnection, UInt64), open(UInt64), wait(UInt64) }
        let next = links.withLock { links -> Next in
            let existing = links[address]
            var link = existing ?? Link(number: nextLink.wrappingAdd(1, ordering: .relaxed).oldValue)
            if let expected, expected != link.number {
                return .refuse("the link to \(address) that its session's earlier dispatches took has closed")
            }
            guard link.pending.count < Self.maxPending else { return .refuse("\(Self.maxPending) dispatches wait for \(address)") }
            guard link.pending[key] == nil else { return .refuse("the same dispatch is already on its way") }
            link.pending[key] = (answered, .now)
            defer { links[address] = link }
            if let connection = link.connection { return .write(connection, link.number) }
            link.queued.append(message)
            return existing == nil ? .open(link.number) : .wait(link.number)
        }
        switch next {
        case .refuse(let reason):
            return .refused(reason)
        case .write(let connection, let number):
            Self.send(message, on: connection)
            return .sent(link: number)
        case .open(let number):
            open(address)
            return .sent(link: number)
        case .wait(let number):
            return .sent(link: number)
        }
    }

    /// Tells every writer that `session` of `store` left this node.
    func left(_ session: String, store: StoreName) {
        let message = JSONSerializer().string(for: .object([
            "type": "left", "store": .string(store.rawValue), "session": .string(session),
        ]))
        let open = links.withLock { links in links.values.compactMap(\.connection) }
        for connection in open { Self.send(message, on: connection) }
    }

    /// Closes every link; their pending dispatches fail.
    func close() async {
        let running = tasks.withLock { tasks in defer { tasks = [:] }; return Array(tasks.values) }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }

    /// Opens the link to `address` and reads its answers until it closes.
    private func open(_ address: String) {
        let task = Task { [self] in
            // From the start: a writer that accepts the connection but never answers the upgrade holds no dispatch forever.
            let sweeper = Task { await sweep(address) }
            defer { sweeper.cancel() }
            do {
                var headers = HTTPHeaders()
                headers.add(name: "Authorization", value: "Bearer \(secret)")
                let connection = try await WebSocketClient.connect(
                    url: "ws://\(address)\(Self.path)", subprotocols: [Self.subprotocol], headers: headers)
                // Written under the lock: a dispatch forwarded meanwhile goes out after them.
                links.withLock { links in
                    links[address]?.connection = connection
                    for message in links[address]?.queued ?? [] { Self.send(message, on: connection) }
                    links[address]?.queued = []
                }
                logger.info("cluster link opened", metadata: ["writer": "\(address)"])
                try await withTaskCancellationHandler {
                    for try await message in connection.inbound { answer(Array(message.data.readableBytesView), from: address) }
                } onCancel: {
                    connection.outbound.close(code: .goingAway, reason: "", promise: nil)
                }
                end(address, reason: "the link to the writer at \(address) closed")
            } catch {
                end(address, reason: "the link to the writer at \(address) failed: \(error)")
            }
        }
        tasks.withLock { $0[address] = task }
    }

    /// Writes `text` as one text message on `connection`, without waiting.
    private static func send(_ text: String, on connection: WebSocketConnection) {
        connection.outbound.write(WebSocketMessage(kind: .text, data: ByteBuffer(string: text)))
    }

    /// Hands one answer to its dispatch's caller.
    private func answer(_ bytes: [UInt8], from address: String) {
        guard case .object(let object) = try? JSONParser().parse(bytes),
              let session = object["session"]?.stringValue, let store = object["store"]?.stringValue,
              case .object(let answer)? = object["answer"], let id = answer["id"]?.stringValue
        else {
            logger.warning("a writer sent a message that is not an answer; ignored", metadata: ["writer": "\(address)"])
            return
        }
        let key = Key(store: store, session: session, id: id)
        guard let answered = links.withLock({ $0[address]?.pending.removeValue(forKey: key)?.answered }) else { return }
        switch answer["type"]?.stringValue {
        case "ack":
            answered(answer["rev"]?.int64Value.map { .accepted(revision: UInt64(clamping: $0)) } ?? .failed("an ack without rev"))
        case "reject":
            answered(.rejected(code: answer["code"]?.stringValue ?? "internal_error", message: answer["message"]?.stringValue ?? ""))
        default:
            answered(.failed("the writer answered \(answer["type"]?.stringValue ?? "nothing")"))
        }
    }

    /// Fails, every quarter of a second, the dispatches on the link to
    /// `address` that have waited longer than ``answerTimeout``.
    private func sweep(_ address: String) async {
        while (try? await Task.sleep(for: .milliseconds(250))) != nil {
            let deadline = ContinuousClock.now - Self.answerTimeout
            let expired = links.withLock { links -> [@Sendable (ForwardOutcome) -> Void] in
                guard var link = links[address] else { return [] }
                let late = link.pending.filter { $0.value.sent < deadline }
                for key in late.keys { link.pending[key] = nil }
                links[address] = link
                return late.values.map(\.answered)
            }
            if !expired.isEmpty {
                logger.warning("the writer did not answer forwarded dispatches in time", metadata: [
                    "writer": "\(address)", "dispatches": "\(expired.count)"])
            }
            for answered in expired { answered(.failed("the writer at \(address) did not answer within \(Self.answerTimeout)")) }
        }
    }

    /// Forgets the link to `address`: every dispatch still waiting on it fails.
    private func end(_ address: String, reason: String) {
        let pending = links.withLock { links in links.removeValue(forKey: address)?.pending.values.map(\.answered) ?? [] }
        _ = tasks.withLock { $0.removeValue(forKey: address) }
        if !pending.isEmpty { logger.warning("cluster link lost", metadata: ["writer": "\(address)", "pending": "\(pending.count)"]) }
        for answered in pending { answered(.failed(reason)) }
    }
}
