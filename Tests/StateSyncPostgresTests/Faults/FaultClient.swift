import NIOCore
import StateSyncCore
import StateSyncProtocol
import Synchronization
import WebSocket

/// A client of the cluster fault suite: increments its own counter
/// (`/counters/NAME`, its `clientId` NAME) one action id at a time through
/// any node, and when an answer does not come within ``answerTimeout`` (a
/// node killed, paused, cut off) sends the same id again through the next
/// node. It watches its counter as it goes (resuming with `since` and the
/// epoch) and notes any revision that goes backwards within an epoch.
final class FaultClient: Sendable {
    /// One acknowledged dispatch.
    struct Ack: Sendable {
        /// Its action id's number (`NAME-N`).
        let number: Int
        /// The revision the ack named.
        let revision: Int64
        /// When the ack arrived.
        let at: ContinuousClock.Instant
    }

    /// What the client saw.
    struct Record: Sendable {
        /// Its acks, in order.
        var acks: [Ack] = []
        /// Revisions that went backwards within an epoch, and other wrongs.
        var problems: [String] = []
        /// The epoch and revision last seen, acks and watched changes alike.
        var epoch: String?
        var revision: Int64 = 0
        /// Connections it opened, and sends of an id it sent before.
        var connections = 0
        var resends = 0
        var stopped = false
    }

    /// How long a dispatch waits for its answer before it goes elsewhere.
    static let answerTimeout = Duration.seconds(3)
    /// The pause after each ack: about 20 dispatches a second per client.
    static let pace = Duration.milliseconds(50)

    /// Its clientId and counter.
    let name: String
    private let urls: [String]
    private let record = Mutex(Record())

    /// A client of the nodes at `urls`, starting with the one at `first`.
    init(name: String, urls: [String], first: Int) {
        self.name = name
        self.urls = Array(urls[first...] + urls[..<first])
    }

    /// A copy of what it saw so far.
    var seen: Record { record.withLock { $0 } }

    /// Ends ``run()`` once the dispatch in flight is acknowledged.
    func stop() {
        record.withLock { $0.stopped = true }
    }

    /// Dispatches until ``stop()``; the last dispatch is acknowledged
    /// before it returns, or the task is cancelled.
    func run() async {
        var number = 1
        var node = 0
        var sentBefore = false
        while !Task.isCancelled {
            if record.withLock({ $0.stopped }) && !sentBefore { return }
            guard let session = await connect(urls[node]) else {
                node = (node + 1) % urls.count
                try? await Task.sleep(for: .milliseconds(100))
                continue
            }
            // Dispatch through this node until it fails to answer.
            while !Task.isCancelled {
                if record.withLock({ $0.stopped }) && !sentBefore {
                    session.close()
                    return
                }
                let id = "\(name)-\(number)"
                if sentBefore { record.withLock { $0.resends += 1 } }
                sentBefore = true
                guard (try? await session.send(.object([
                    "type": "dispatch", "id": .string(id), "action": ["type": "increment", "counter": .string(name)],
                ]))) != nil, let answer = await session.mailbox.answer(for: id, within: Self.answerTimeout) else { break }
                if answer["type"] == "ack", let revision = answer["rev"]?.int64Value {
                    acknowledged(number, revision: revision)
                    number += 1
                    sentBefore = false
                    try? await Task.sleep(for: Self.pace)
                    continue
                }
                let code = answer["code"]?.stringValue ?? ""
                if code != "unavailable" { note("\(id) got \(answer)") }
                try? await Task.sleep(for: .milliseconds(200))
                break
            }
            session.close()
            node = (node + 1) % urls.count
        }
    }

    /// A connection to `url`, joined with this client's id and watching its
    /// counter (from the revision it saw, in its epoch); `nil` when the
    /// node does not answer in time or refuses.
    private func connect(_ url: String) async -> FaultSession? {
        var options = WebSocketChannelOptions()
        options.handshakeTimeout = .seconds(2)
        guard let connection = try? await WebSocketClient.connect(
            url: url, subprotocols: [ProtocolVersion.subprotocol], options: options)
        else { return nil }
        record.withLock { $0.connections += 1 }
        let session = FaultSession(connection: connection, client: self)
        session.startReading()
        guard (try? await session.send(.object(["type": "hello", "clientId": .string(name)]))) != nil,
              let welcome = await session.mailbox.answer(for: "welcome", within: Self.answerTimeout),
              let epoch = welcome["epoch"]?.stringValue
        else {
            session.close()
            return nil
        }
        // Resumed from the revision seen, in the epoch it was seen in: a
        // node behind it catches up first, or answers `behind`.
        let revision = record.withLock { record in
            if record.epoch != epoch { (record.epoch, record.revision) = (epoch, 0) }
            return record.revision
        }
        let subscribe: JSONObject = [
            "type": "subscribe", "id": "watch", "path": .string("/counters/\(name)"), "since": .integer(revision), "epoch": .string(epoch),
        ]
        guard (try? await session.send(.object(subscribe))) != nil,
              let watching = await session.mailbox.answer(for: "watch", within: Self.answerTimeout),
              watching["type"] != "error"
        else {
            session.close()
            return nil
        }
        return session
    }

    /// A `snapshot` or `patch` of the watched counter, in the epoch the
    /// connection's `welcome` named: the revision must not go back. (An
    /// ack's may: a re-sent id's ack names the revision it was first
    /// applied at.)
    func saw(revision: Int64, in message: @autoclosure () -> String) {
        record.withLock { record in
            if revision < record.revision {
                record.problems.append("\(name): revision \(revision) after \(record.revision) in one epoch: \(message())")
            }
            record.revision = max(record.revision, revision)
        }
    }

    private func acknowledged(_ number: Int, revision: Int64) {
        record.withLock { $0.acks.append(Ack(number: number, revision: revision, at: .now)) }
    }

    private func note(_ problem: String) {
        record.withLock { $0.problems.append("\(name): \(problem)") }
    }
}

/// One connection of a ``FaultClient``: its reader hands answers to the
/// mailbox and the watched counter's revisions to the client.
private struct FaultSession: Sendable {
    let connection: WebSocketConnection
    let client: FaultClient
    let mailbox = Mailbox()

    /// Closes the connection without waiting for the node (it may be paused).
    func close() {
        connection.outbound.close(code: .normalClosure, reason: "", promise: nil)
    }

    func send(_ value: JSONValue) async throws {
        try await connection.outbound.send(text: JSONSerializer().string(for: value))
    }

    /// Reads until the connection closes, then closes the mailbox.
    func startReading() {
        Task {
            for await message in connection.inbound {
                guard let value = try? JSONParser().parse(Array(message.data.readableBytesView)) else { continue }
                read(value)
            }
            mailbox.close()
        }
    }

    private func read(_ message: JSONValue) {
        switch message["type"]?.stringValue {
        case "welcome":
            mailbox.deliver(message, for: "welcome")
        case "snapshot", "patch":
            if let revision = message["rev"]?.int64Value {
                client.saw(revision: revision, in: "\(message)")
            }
            if message["type"] == "snapshot" || message["base"] != nil, message["id"] == "watch" {
                mailbox.deliver(message, for: "watch")
            }
        case "ack", "reject", "error":
            if let id = message["id"]?.stringValue { mailbox.deliver(message, for: id) }
        default:
            break
        }
    }
}
