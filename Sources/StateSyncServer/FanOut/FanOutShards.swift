import StateSyncProtocol
import Logging
import NIOCore
import StateSyncCore
import Synchronization

/// The hand-off from the sequencer to one ``FanOutShard`` per event loop; a
/// session belongs to its sink's loop's shard (loopless sinks in turn). Owned
/// by the sequencer's task; it never waits for the shards.
struct FanOutShards {
    /// The durable state the shards publish, as last handed to them.
    private(set) var state: JSONValue
    /// Its revision.
    private(set) var revision: UInt64
    /// The joined sessions by id.
    private(set) var sessions: [String: JoinedSession] = [:]
    private let shards: [FanOutShard]
    /// Where the revision handed to the shards is published for readers.
    private let shared: EngineShared
    private let shardOfLoop: [ObjectIdentifier: Int]
    private var nextShard = 0

    /// One shard per loop of `eventLoops` (at least one), publishing
    /// `state` at `revision`; each revision handed over is stored in
    /// `shared`'s ``EngineShared/publishedRevision`` first.
    init(
        eventLoops: any EventLoopGroup, state: JSONValue, revision: UInt64, history: (capacity: Int, budget: Int),
        deferredLimits: (count: Int, bytes: Int), metrics: ServerMetrics, logger: Logger, shared: EngineShared,
        encoder: MessageEncoder = MessageEncoder()
    ) {
        self.state = state
        self.revision = revision
        self.shared = shared
        var loops: [any EventLoop] = []
        var seen: Set<ObjectIdentifier> = []
        for loop in eventLoops.makeIterator() where seen.insert(ObjectIdentifier(loop)).inserted {
            loops.append(loop)
        }
        if loops.isEmpty { loops = [eventLoops.next()] }
        shards = loops.map {
            FanOutShard(
                eventLoop: $0, state: state, revision: revision, history: history,
                deferredLimits: deferredLimits, metrics: metrics, logger: logger, encoder: encoder)
        }
        shardOfLoop = Dictionary(uniqueKeysWithValues: loops.enumerated().map { (ObjectIdentifier($1), $0) })
    }

    /// How many shards publish (one per event loop).
    var count: Int { shards.count }

    // MARK: Sessions

    /// Registers a joined session with the shard of its sink's loop.
    mutating func join(_ record: SessionRecord) {
        let index: Int
        if let loop = record.sink.eventLoop, let own = shardOfLoop[ObjectIdentifier(loop)] {
            index = own
        } else {
            index = nextShard
            nextShard = (nextShard + 1) % shards.count
        }
        sessions[record.info.id] = JoinedSession(
            info: record.info, clientID: record.clientID, role: record.role, announced: record.announced, shard: index)
        shards[index].run { $0.join(record) }
    }

    /// The joined session `sessionID` has the role `role` from now on.
    mutating func changeRole(of sessionID: String, to role: Role) {
        guard sessions[sessionID] != nil else { return }
        sessions[sessionID]?.role = role
        withShard(of: sessionID) { $0.changeRole(of: sessionID, to: role) }
    }

    /// Forgets the session and its subscriptions; returns what was known of it.
    mutating func leave(_ sessionID: String) -> JoinedSession? {
        guard let session = sessions.removeValue(forKey: sessionID) else { return nil }
        shards[session.shard].run { _ = $0.leave(sessionID) }
        return session
    }

    /// Runs `body` on the shard of the joined session `sessionID`; nothing
    /// when it is not joined (it left, or never joined).
    func withShard(of sessionID: String, _ body: @escaping @Sendable (inout Publication) -> Void) {
        guard let session = sessions[sessionID] else { return }
        shards[session.shard].run(body)
    }

    /// Answers the `get` `id` of session `sessionID` on its shard. A `get` gets
    /// the state published when it is sent (docs/PROTOCOL.md, "One-shot read"),
    /// so later changes may be published first.
    func get(sessionID: String, id: String, path: JSONPointer) {
        guard let session = sessions[sessionID] else { return }
        shards[session.shard].runReadingLatest { $0.get(sessionID: sessionID, id: id, path: path) }
    }

    // MARK: Publishing

    /// Hands `batch` to the shards: its state to every shard, each answer to its
    /// session's shard after the patches; one for a departed session goes to the
    /// first shard, which counts it and sends nothing.
    mutating func publish(_ batch: PendingBatch) {
        if let last = batch.state {
            state = last
            revision += UInt64(batch.revisions)
            // Before any shard sends: whoever sees a patch sees its revision published.
            shared.publishedRevision.store(revision, ordering: .releasing)
        }
        var answers = [[DispatchAnswer]](repeating: [], count: shards.count)
        for answer in batch.answers {
            answers[sessions[answer.sessionID]?.shard ?? 0].append(answer)
        }
        for (index, shard) in shards.enumerated() {
            let change = PublishedChange(batch, answers: answers[index])
            if !change.isEmpty { shard.publish(change) }
        }
    }

    // MARK: Devtools and shutdown

    /// Calls `reply` with every shard's joined sessions, in id order, once
    /// all shards have answered (behind the work queued for them before).
    func summaries(_ reply: @escaping @Sendable ([SessionSummary]) -> Void) {
        let futures = shards.map { $0.read { $0.summaries() } }
        EventLoopFuture.whenAllComplete(futures, on: shards[0].eventLoop).whenSuccess { results in
            var all: [SessionSummary] = []
            for case .success(let summaries) in results { all += summaries }
            // A failure means the shard's loop has stopped (shutdown): it has no sessions to show.
            reply(all.sorted { $0.id < $1.id })
        }
    }

    /// Returns once every shard has run what was queued for it and written
    /// its large answers; a shard whose loop has stopped is logged and skipped.
    func finish(logger: Logger) async {
        for shard in shards {
            do {
                try await shard.finish()
            } catch {
                logger.error("a fan-out shard could not finish", metadata: ["error": "\(error)"])
            }
        }
    }
}
