import NIOCore
import StateSyncCore
import StateSyncProtocol
import Synchronization
import WebSocket

/// One simulated client on its connection's event loop: subscribes, checks that
/// each patch chains on the last (`base`, via ``PatchScanner``), records latencies
/// and, for a writer, dispatches on a schedule.
final class SimulatedClient {
    private struct Subscription {
        var id: String
        var pointer: JSONPointer
        var path: PathTable.ID
        var lastRev: UInt64?
        /// Its next `snapshot` or `patch` answers its resume after the storm.
        var resumePending = false
    }

    let index: Int
    /// The node it is connected to: its URL's index in ``LoadScenario/urls``.
    private let node: Int
    /// The store it is in: its number (below ``LoadScenario/storeCount``) and name.
    private let storeIndex: Int
    private let store: StoreName
    /// The ledger of its store.
    private let ledger: DeliveryLedger
    private let shared: RunShared
    private let recorder: LoopRecorder
    private let decoder = MessageDecoder()
    /// Names the client's store in each message (nothing for `main`).
    private let encoder: MessageEncoder
    private var subscriptions: [Subscription]
    private var snapshotsMissing: Int
    private var outbound: WebSocketOutbound?
    /// The run closes the connection itself at the end: not a failure.
    private var closing = false
    private var writer: Writer?
    /// Dropped by the reconnect storm and not yet resumed: its connection
    /// is being opened again, or its subscriptions resumed.
    private var resuming = false
    /// Subscriptions whose resume is not answered yet.
    private var resumesMissing = 0
    /// From the drop until the new connection's `welcome`: dispatches wait
    /// in the outbox (``Writer/queue``), sent with it after the `welcome`.
    private var holdingDispatches = false

    /// The dispatching side of a writer client (a class: its queue is
    /// changed in place, never copied).
    private final class Writer {
        let number: Int
        var queue = WriterQueue()
        var sequence = 0
        var timer: RepeatedTask?

        init(number: Int) {
            self.number = number
        }
    }

    init(index: Int, shared: RunShared, recorder: LoopRecorder, subscriptionPaths: [(JSONPointer, PathTable.ID)]) {
        self.index = index
        self.node = index % shared.scenario.urls.count
        storeIndex = shared.scenario.storeIndex(ofClient: index)
        store = shared.scenario.storeName(storeIndex)
        ledger = shared.ledgers[storeIndex]
        encoder = MessageEncoder(store: store)
        self.shared = shared
        self.recorder = recorder
        self.subscriptions = subscriptionPaths.enumerated().map { number, path in
            Subscription(id: "s\(number)", pointer: path.0, path: path.1)
        }
        self.snapshotsMissing = subscriptionPaths.count
        if index < shared.scenario.writers { writer = Writer(number: index) }
    }

    // MARK: Connection events

    func opened(_ outbound: WebSocketOutbound) {
        self.outbound = outbound
        let name = "\(shared.scenario.clientPrefix)-\(index)"
        send(.hello(clientID: "\(name)-\(shared.scenario.runID)", token: shared.scenario.token, name: name))
        // Not waiting for the welcome: the server handles requests sent right
        // after hello in order once the session joined, one round trip sooner.
        subscribeAll()
    }

    func received(_ message: WebSocketMessage) {
        let arrived = RunShared.now()
        shared.counters.bytesReceived.bump(message.data.readableBytes)
        // Most messages are patches: their header is scanned, their ops skipped.
        if let header = message.data.withUnsafeReadableBytes(PatchScanner.header) {
            guard header.store ?? StoreName.main.rawValue == store.rawValue else {
                return problem("client \(index): a patch of store \(header.store ?? "main") in store \(store)")
            }
            return patch(id: header.id, base: header.base, rev: header.rev, arrived: arrived)
        }
        let decoded: ServerMessage
        do {
            let scoped = try decoder.decodeStoreScopedServerMessage(message.data.readableBytesView)
            // welcome is main's; every other message must be about the client's own store.
            let isWelcome = if case .welcome = scoped.message { true } else { false }
            guard isWelcome || scoped.store == store else {
                return problem("client \(index): a \(scoped.message.type) of store \(scoped.store) in store \(store)")
            }
            decoded = scoped.message
        } catch {
            problem("client \(index): a server message does not decode: \(error)")
            return
        }
        switch decoded {
        case .welcome:
            welcomed()
        case let .snapshot(id, rev, _):
            guard let number = subscriptionNumber(id) else { return problem("client \(index): a snapshot for \(id), not a subscription") }
            if subscriptions[number].resumePending { return resumedFromSnapshot(number, rev: rev, arrived: arrived) }
            guard subscriptions[number].lastRev == nil else {
                return problem("client \(index): unexpected snapshot for \(id)")
            }
            subscriptions[number].lastRev = rev
            snapshotsMissing -= 1
            if snapshotsMissing == 0 { becameReady() }
        case let .patch(id, base, rev, _):
            patch(id: id, base: base, rev: rev, arrived: arrived)
        case let .ack(id, rev):
            answered(id: id, arrived: arrived) { outstanding in
                self.recorder.recordAck(nanoseconds: arrived - min(arrived, outstanding.sent))
                let expected = self.ledger.recordAck(rev: rev, sent: outstanding.sent, path: outstanding.path, node: self.node)
                self.shared.counters.expectedDeliveries.bump(expected)
                self.shared.counters.acked.bump()
            }
        case let .reject(id, code, _):
            answered(id: id, arrived: arrived) { _ in
                self.shared.counters.rejected.bump()
                self.shared.problems.reject(code: code.rawValue)
            }
        case let .error(id, code, text):
            problem("client \(index): error \(code.rawValue)\(id.map { " (\($0))" } ?? ""): \(text)")
            // An error naming an unanswered dispatch (a persistent rate
            // limit) answers it: the action was refused.
            if let id, let sequence = Self.sequence(of: id), writer?.queue.contains(sequence) == true {
                answered(id: id, arrived: arrived) { _ in self.shared.counters.rejected.bump() }
            }
        case .unsubscribed, .value, .authorized:
            problem("client \(index): unexpected \(decoded.type)")
        }
    }

    func closed(_ connection: WebSocketOutbound, status: WebSocketCloseStatus) {
        // The close of a connection the storm dropped may come after its successor opened.
        if let outbound, outbound !== connection { return }
        outbound = nil
        // Dropped by the storm: the writer's schedule runs on, its actions wait in the outbox.
        if resuming { return }
        writer?.timer?.cancel()
        writer?.timer = nil
        guard !closing else { return }
        shared.counters.dropped.bump()
        problem("client \(index): the connection closed during the run (\(status))")
    }

    /// Drops the connection without a close handshake (the run's reconnect
    /// storm). The runner then opens a new one with the same handler, and
    /// the client resumes (see ``LoadScenario/reconnectStormAt``).
    func drop() {
        resuming = true
        holdingDispatches = true
        outbound?.channel.close(promise: nil)
    }

    /// The storm's reconnect failed: the client is gone for the rest of
    /// the run, and its writer stops.
    func abandon() {
        resuming = false
        closing = true
        if let timer = writer?.timer {
            timer.cancel()
            writer?.timer = nil
            shared.counters.writing.add(-1, ordering: .releasing)
        }
    }

    /// Closes the connection (the run is over).
    func close() {
        closing = true
        writer?.timer?.cancel()
        writer?.timer = nil
        outbound?.close(code: .normalClosure, reason: "bench done", promise: nil)
    }

    // MARK: Subscriptions

    private func becameReady() {
        shared.counters.ready.bump()
    }

    /// Subscribes to every path, resuming each from its last revision after a drop.
    private func subscribeAll() {
        if resuming { resumesMissing = subscriptions.count }
        for number in subscriptions.indices {
            subscriptions[number].resumePending = resuming
            let subscription = subscriptions[number]
            send(.subscribe(id: subscription.id, path: subscription.pointer, since: resuming ? subscription.lastRev : nil))
        }
    }

    /// The session joined: after a drop, sends the outbox again (exactly-once
    /// answers the actions the server applied before the drop with their first outcome).
    private func welcomed() {
        holdingDispatches = false
        if resuming, let writer {
            for item in writer.queue.inSendingOrder {
                send(.dispatch(id: "a\(item.sequence)", action: item.action))
            }
        }
        if subscriptions.isEmpty { resuming ? becameResumed() : becameReady() }
    }

    /// A resume answered with a `snapshot`: the server's history no longer
    /// holds the subscription's revision. The value carries every revision
    /// since that one, delivered now.
    private func resumedFromSnapshot(_ number: Int, rev: UInt64, arrived: UInt64) {
        shared.counters.resumedBySnapshot.bump()
        if let last = subscriptions[number].lastRev {
            guard rev >= last else {
                return problem("client \(index): \(subscriptions[number].id) resumed from revision \(last) at an older one, \(rev)")
            }
            recorder.pending[storeIndex].append(PendingPatch(path: subscriptions[number].path, base: last, rev: rev, arrived: arrived, node: node))
        }
        subscriptions[number].lastRev = rev
        subscriptionResumed(number)
    }

    private func subscriptionResumed(_ number: Int) {
        subscriptions[number].resumePending = false
        resumesMissing -= 1
        if resumesMissing == 0 { becameResumed() }
    }

    private func becameResumed() {
        resuming = false
        shared.counters.resumed.bump()
    }

    private func subscriptionNumber(_ id: String) -> Int? {
        guard id.first == "s", let number = Int(id.dropFirst()), subscriptions.indices.contains(number) else { return nil }
        return number
    }

    private func patch(id: String, base: UInt64, rev: UInt64, arrived: UInt64) {
        guard let number = subscriptionNumber(id), let last = subscriptions[number].lastRev else {
            return problem("client \(index): patch for \(id), which has no snapshot")
        }
        shared.counters.patches.bump()
        if base != last {
            shared.counters.gaps.bump()
            problem("client \(index): gap on \(id): base \(base) after rev \(last)")
        }
        subscriptions[number].lastRev = rev
        recorder.pending[storeIndex].append(PendingPatch(path: subscriptions[number].path, base: base, rev: rev, arrived: arrived, node: node))
        if subscriptions[number].resumePending {
            shared.counters.resumedByPatch.bump()
            subscriptionResumed(number)
        }
    }

    // MARK: Writing

    /// Dispatches `rate` actions per second from `start` until `end` (monotonic
    /// nanoseconds) on a schedule that does not drift; writer k of n starts k/n of a
    /// period late, so that together the writers send at an even pace.
    func startWriting(rate: Double, start: UInt64, end: UInt64, loop: any EventLoop) {
        guard let writer, rate > 0 else { return }
        shared.counters.writing.add(1, ordering: .releasing)
        let phase = Self.phase(ofWriter: writer.number, of: shared.scenario.writers, rate: rate)
        let interval = Int64(min(1e9, max(1e6, 1e9 / rate)))
        let bound = NIOLoopBound(self, eventLoop: loop)
        writer.timer = loop.scheduleRepeatedTask(initialDelay: .nanoseconds(Int64(phase)), delay: .nanoseconds(interval)) { task in
            bound.value.tick(start: start + phase, end: end, rate: rate, task: task)
        }
    }

    /// How late (nanoseconds) writer `number` of `writers`, each sending
    /// `rate` actions per second, starts: its share of one period.
    static func phase(ofWriter number: Int, of writers: Int, rate: Double) -> UInt64 {
        let writers = max(1, writers)
        return UInt64(1e9 / rate * Double(number % writers) / Double(writers))
    }

    private func tick(start: UInt64, end: UInt64, rate: Double, task: RepeatedTask) {
        guard let writer, outbound != nil || resuming else { return stopWriting(task) }
        let now = RunShared.now()
        let until = min(now, end)
        let due = until > start ? Int((Double(until - start) / 1e9 * rate).rounded(.down)) - writer.sequence : 0
        for _ in 0..<max(0, due) {
            writer.sequence += 1
            if writer.queue.count >= shared.scenario.maxOutstandingPerWriter {
                shared.counters.skipped.bump()
                continue
            }
            dispatch(writer, sent: now)
        }
        if now >= end { stopWriting(task) }
    }

    /// Ends this writer's ticks; the run's drain waits for every writer to get here.
    private func stopWriting(_ task: RepeatedTask) {
        task.cancel()
        writer?.timer = nil
        shared.counters.writing.add(-1, ordering: .releasing)
    }

    private func dispatch(_ writer: Writer, sent: UInt64) {
        let scenario = shared.scenario
        let random = Int.random(in: 0..<scenario.clients)
        let text = scenario.action.action.render(client: index, random: random, sequence: writer.sequence)
        let path = ledger.actionPath(scenario.action.path.render(client: index, random: random, sequence: writer.sequence))
        let parsed: JSONValue
        do {
            parsed = try JSONValue(parsing: text)
        } catch {
            return problem("writer \(index): action \(text) is not JSON: \(error)")
        }
        guard let action = parsed.objectValue else {
            return problem("writer \(index): action \(text) is not a JSON object")
        }
        if writer.queue.count == 0 { shared.watermark.update(writer: writer.number, oldestSent: sent) }
        writer.queue.append(.init(sequence: writer.sequence, sent: sent, path: path, action: action))
        if !holdingDispatches { send(.dispatch(id: "a\(writer.sequence)", action: action)) }
        shared.counters.sent.bump()
    }

    private func answered(id: String, arrived: UInt64, _ record: (WriterQueue.Outstanding) -> Void) {
        guard let writer, let sequence = Self.sequence(of: id), let outstanding = writer.queue.remove(sequence: sequence) else {
            return problem("client \(index): answer \(id) to no unanswered dispatch")
        }
        record(outstanding)
        shared.watermark.update(writer: writer.number, oldestSent: writer.queue.oldest()?.sent ?? AnswerWatermark.clear)
        writer.queue.compact()
    }

    /// The sequence number of action id `a<sequence>`.
    private static func sequence(of id: String) -> Int? {
        id.first == "a" ? Int(id.dropFirst()) : nil
    }

    // MARK: Helpers

    private func send(_ message: ClientMessage) {
        guard let outbound else { return }
        let bytes = encoder.encode(message)
        shared.counters.bytesSent.bump(bytes.count)
        outbound.write(WebSocketMessage(kind: .text, data: ByteBuffer(bytes: bytes)))
    }

    private func problem(_ message: String) {
        shared.counters.errors.bump()
        shared.problems.note(message)
    }
}

@available(*, unavailable)
extension SimulatedClient: Sendable {}

/// The event-loop handler of a simulated client's connection.
struct SimulatedClientHandler: WebSocketEventLoopHandler {
    let client: NIOLoopBound<SimulatedClient>

    func webSocketOpened(_ outbound: WebSocketOutbound) {
        client.value.opened(outbound)
    }

    func webSocket(_ outbound: WebSocketOutbound, received message: WebSocketMessage) {
        client.value.received(message)
    }

    func webSocketClosed(_ outbound: WebSocketOutbound, status: WebSocketCloseStatus) {
        client.value.closed(outbound, status: status)
    }
}
