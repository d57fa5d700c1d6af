import CoreMetrics
public import StateSyncJournal
import Synchronization
public import Logging
public import StateSyncCore
public import StateSyncProtocol
public import NIOCore
import NIOPosix

/// The transport-independent heart of a StateSync server: it owns one app's
/// state, sequences the actions of every session, journals them, and sends
/// each subscriber focused patches through its ``SessionSink``.
///
/// Every method but ``init(journal:configuration:logger:)`` and
/// ``shutdown()`` returns at once: it queues a request that the engine's
/// sequencer (one task) handles in order, and the answers go to the session's
/// sink. Requests of one session are handled in the order it made them.
///
/// Guarantees (docs/PROTOCOL.md, DESIGN invariants):
/// - Actions arriving together are reduced in order into one batch, written
///   with one journal append (one fsync); while it is written the next batch
///   accumulates (group commit).
/// - Only durable revisions are ever shown: after a batch is durable, its
///   patches are sent, then its `ack`s and `reject`s. On the dispatching
///   session every patch up to an action's revision precedes its `ack`.
/// - Exactly-once: a repeated `(clientId, id)` gets the original `ack` or
///   `reject` (remembered in memory, else read from the journal).
/// - A subscription hears only changes of its slice, chained by `base`,
///   never with a gap. A session whose sink is not
///   ``SessionSink/isWritable`` gets nothing until the sink reports the
///   drain (``SessionSink/notifyWhenWritable(_:)``), then one coalesced
///   patch per subscription (or a snapshot if its base left the history
///   window), then the answers held back.
///
/// - Fan-out runs on every core: the sequencer hands each durable batch to
///   one shard per event loop (``init(journal:configuration:middleware:metrics:logger:eventLoops:)``),
///   which prepares and writes its sessions' messages on that loop. Each
///   session's messages keep the order above; sessions of different
///   shards are sent to in parallel, with no order between them.
///
/// The session layer validates messages (hello first, roles, rate limits,
/// pointer syntax, subscription limits) and hands the engine only valid
/// ``SessionRequest``s; the engine still rejects a dispatch from a `reader`
/// with `forbidden`.
///
/// Every command, the clients' and the server's own (presence, an effect's
/// follow-ups), runs through the app's pipeline: `middleware` before and
/// after `App.reducer`, then `App.effects` once it is durable (see
/// ``init(journal:configuration:middleware:metrics:logger:eventLoops:)``).
///
/// ```swift
/// let journal = try await SQLiteJournal.open(configuration: .init(directory: dataDirectory), logger: logger)
/// let engine = try await SyncEngine<Board>(journal: journal, logger: logger)
/// let welcome = engine.join(session: SessionInfo(id: "s-1", name: "alice"), clientID: "c-5f2a", role: .writer, sink: sink)
/// engine.handle(.subscribe(id: "s1", path: try JSONPointer(parsing: "/todos"), since: nil), from: "s-1")
/// engine.handle(.dispatch(id: "a1", action: ["type": "addTodo", "title": "Milk"]), from: "s-1")
/// // sink receives: snapshot s1, patch s1 (base → rev), ack a1
/// engine.leave(session: "s-1")
/// await engine.shutdown()
/// ```
public final class SyncEngine<App: StateSyncApp>: Sendable {
    private let inbox: EngineInbox
    private let shared: EngineShared
    /// The journal the engine writes (devtools read it beside the engine).
    let journal: any Journal
    private let effects: EffectRunner<SessionCommand<App.Action>>

    /// Opens the engine on `journal`: restores the last snapshot, replays the
    /// entries after it through `App.reducer` with their recorded `Meta`
    /// (middleware and effects do not run on replay), then starts the
    /// sequencer, which first journals `serverStarted` when the journal held
    /// a history. The engine takes over the journal and closes it in
    /// ``shutdown()``.
    ///
    /// - Parameters:
    ///   - journal: Where accepted actions, outcomes and snapshots go
    ///     (``SQLiteJournal``, or ``MemoryJournal`` for `--memory`).
    ///   - configuration: Batching, history and slow-consumer settings.
    ///   - middleware: Run around `App.reducer` for every command, in order
    ///     (``ActionLogMiddleware``, ``ActionMetricsMiddleware``, your own);
    ///     a middleware's rejection answers a client's dispatch with its code.
    ///   - metrics: Where the engine counts actions, patches, snapshots,
    ///     slow consumers and dispatch → answer times (default: handles from
    ///     the process's `MetricsSystem`).
    ///   - logger: Lifecycle at `info`, sessions at `debug`, each action at `trace`.
    ///   - eventLoops: Where the fan-out runs: one shard per loop prepares
    ///     and writes the messages of the sessions whose sinks run on that
    ///     loop (``SessionSink/eventLoop``); pass the server's group. Default:
    ///     NIO's shared group (one loop per core). The group must outlive
    ///     ``shutdown()``.
    /// - Throws: ``SyncEngineError`` when the journal does not replay into
    ///   this app's state; ``JournalError`` when it cannot be read.
    public init(
        journal: any Journal,
        configuration: SyncEngineConfiguration = SyncEngineConfiguration(),
        middleware: [any Middleware<App.State, SessionCommand<App.Action>>] = [],
        metrics: ServerMetrics = ServerMetrics(),
        logger: Logger = Logger(label: "statesync.engine"),
        eventLoops: (any EventLoopGroup)? = nil
    ) async throws {
        // The exactly-once tables are read on the journal's readers while the state is rebuilt.
        let start = ContinuousClock.now
        async let outcomes = Self.readOutcomes(of: journal)
        let recovered = try await RecoveredState<App>.restore(from: journal)
        let restored = ContinuousClock.now - start
        let (outcomeClients, outcomePairs, outcomesRead) = try await outcomes
        if let from = recovered.migratedFrom {
            logger.notice("store migrated to the app's schema version", metadata: [
                "from": "\(from)", "to": "\(App.schemaVersion)", "rev": "\(recovered.revision)"])
        }
        logger.info("engine recovered", metadata: [
            "epoch": "\(recovered.epoch)", "rev": "\(recovered.revision)", "snapshot": "\(recovered.snapshotRevision)",
            "state": "\(restored)", "outcomes": "\(outcomesRead)",
        ])
        let inboxFull = metrics.engineInboxFull
        let inbox = EngineInbox(capacity: configuration.maxQueuedRequests) { inboxFull.increment() }
        let shared = EngineShared(
            epoch: recovered.epoch, revision: recovered.revision, rejectionLogCapacity: configuration.rejectionLogCapacity)
        let effects = EffectRunner<SessionCommand<App.Action>>()
        let sequencer = Sequencer<App>(
            journal: journal, configuration: configuration,
            pipeline: ActionPipeline(reducer: App.reducer, middleware: middleware, effects: App.effects),
            effects: effects, metrics: metrics, logger: logger, inbox: inbox, shared: shared, recovered: recovered,
            outcomeClients: outcomeClients, outcomePairs: outcomePairs,
            eventLoops: eventLoops ?? MultiThreadedEventLoopGroup.singleton
        )
        self.inbox = inbox
        self.shared = shared
        self.effects = effects
        self.journal = journal
        // One run at a time (the inbox decides), so the sequencer is never shared.
        let runs = SequencerRuns(sequencer)
        inbox.start { Task.detached { await runs.sequencer.run() } }
    }

    /// The clientIds and pairs with remembered outcomes (see
    /// ``Journal/outcomePairs()``; no pairs for a journal with no entry,
    /// whose pairs are never looked up), and how long reading them took.
    private static func readOutcomes(of journal: any Journal) async throws
        -> (clients: [String], pairs: OutcomePairFilter?, took: Duration)
    {
        let start = ContinuousClock.now
        let clients = journal.isKnownEmpty ? [] : try await journal.outcomeClients()
        let pairs = journal.lastRevision > 0 ? try await journal.outcomePairs() : nil
        return (clients, pairs, ContinuousClock.now - start)
    }

    /// The journal's epoch (`welcome.epoch`).
    public var epoch: String { shared.epoch }

    /// The latest durable revision whose patches have been handed to the fan-out.
    public var revision: UInt64 { shared.publishedRevision.load(ordering: .acquiring) }

    /// The app schema version another node wrote the store at, when newer
    /// than this app's: the engine then serves the store no more (it
    /// accepts no actions, closed its sessions with 1013, and sessions may
    /// not enter it), so that clients go to a node that knows it.
    public var newerStoredSchema: Int? {
        let version = shared.newerStoredSchema.load(ordering: .acquiring)
        return version > 0 ? version : nil
    }

    /// The sessions joined now: WebSocket sessions and HTTP requests
    /// (updated as the sequencer handles joins and leaves).
    var sessionCount: Int { shared.sessionCount.load(ordering: .relaxed) }

    /// About how many bytes the state takes encoded as JSON (the estimate
    /// the state's size limit is checked against), as of the last round.
    var estimatedStateBytes: Int { shared.stateBytes.load(ordering: .relaxed) }

    /// Why the engine accepts no more actions (its journal failed for good,
    /// or it cannot follow a shared store), or `nil` while it does: every
    /// dispatch is then rejected `internal_error`, and `/health` says `failed`.
    public var stopReason: String? { shared.stopReason }

    /// Which node of the cluster writes this store (``SharedJournal/watchWriter(_:)``),
    /// or `nil` when the journal did not say (no cluster, no leases).
    public var writer: StoreWriter? { shared.writer.withLock { $0 } }

    /// How many times, since this engine started, another node's
    /// `sessionLeft` removed a session that is live here (announced and
    /// still connected). In a cluster that is a claimer's leave of a node
    /// it held dead, or one it retried after this node had announced its
    /// sessions again; ``ClusterPresence`` announces them again when the
    /// count grows. 0 on a journal nobody else writes.
    var liveSessionsRemovedElsewhere: Int { shared.liveSessionsRemovedElsewhere.load(ordering: .relaxed) }

    /// Registers a session that completed `hello` and journals
    /// `sessionJoined` (presence) unless `announced` is `false`. Send
    /// `welcome` with the returned epoch and revision before calling
    /// anything else for this session.
    ///
    /// - Parameters:
    ///   - session: Its id (unique among open sessions) and name.
    ///   - clientID: The `clientId` from `hello`: scopes action ids for exactly-once;
    ///     without one, repeats cannot be recognized.
    ///   - role: What it may do; a `reader`'s dispatches are rejected `forbidden`.
    ///   - sink: Where its messages go.
    ///   - announced: Whether joining and leaving are journaled in presence
    ///     (default `true`); `false` for short-lived sessions such as the
    ///     server's HTTP API requests, which nobody should see come and go.
    public func join(
        session: SessionInfo, clientID: String?, role: Role, sink: any SessionSink, announced: Bool = true
    ) -> EngineWelcome {
        inbox.post(.join(session, clientID: clientID, role: role, sink: sink, announced: announced))
        return EngineWelcome(epoch: shared.epoch, rev: revision)
    }

    /// Gives a joined session a new role (its token was refreshed): its
    /// later dispatches are checked against `role`.
    public func changeRole(of session: String, to role: Role) {
        inbox.post(.changeRole(sessionID: session, role: role))
    }

    /// Forgets the session and its subscriptions and, when it was announced,
    /// journals `sessionLeft`.
    public func leave(session: String) {
        inbox.post(.leave(sessionID: session))
    }

    /// Journals `sessionLeft` for sessions this engine did not join: in a
    /// cluster, the sessions of a node that died without saying so (see
    /// ``ClusterPresence``), or this node's own at a clean shutdown. Each
    /// runs through the pipeline like any server command; a session that
    /// already left is left again, which changes nothing in the board app.
    ///
    /// Returns once they are reduced into the building batch (durable soon
    /// after, as any batch); at once when the engine has stopped.
    func removeSessions(_ sessions: [SessionInfo]) async {
        for session in sessions {
            let journaled = SessionCommandCoding.encode(SessionCommand<App.Action>.sessionLeft(session))
            await withCheckedContinuation { reduced in
                if !inbox.post(.system(journaled: journaled, reduced: reduced)) { reduced.resume() }
            }
        }
    }

    /// Journals `sessionJoined` again for this engine's announced sessions
    /// whose ids are not in `present`: in a cluster, the live sessions whose
    /// presence another node removed after declaring this one dead (see
    /// ``ClusterPresence``). Each is reduced through the pipeline as a
    /// normal join is, with its session's `clientId`.
    ///
    /// - Returns: How many were announced, once they are reduced into the
    ///   building batch; 0 at once when the engine has stopped.
    func announceSessions(except present: Set<String>) async -> Int {
        await withCheckedContinuation { announced in
            if !inbox.post(.announceSessions(except: present, announced: announced)) { announced.resume(returning: 0) }
        }
    }

    /// Queues `request` of the joined session `session`; the answer goes to
    /// its sink (see ``SessionRequest`` for what each one sends).
    ///
    /// A `dispatch` is answered `ack` once durable (after the patches up to
    /// its revision), or `reject` (`invalid_action` when it does not decode,
    /// `forbidden` for a reader, a middleware's or the reducer's code
    /// otherwise). A repeated `(clientId, id)` gets the original answer
    /// without applying the action again.
    ///
    /// It never waits, so it does not bound the engine's queue for a caller
    /// that keeps posting: a session reading from a client uses
    /// ``submit(_:from:)``.
    ///
    /// - Returns: `false` when the engine has stopped and will not answer.
    @discardableResult
    public func handle(_ request: SessionRequest, from session: String) -> Bool {
        inbox.post(.request(sessionID: session, request, received: .now))
    }

    /// Queues `request` as ``handle(_:from:)`` does, but first waits while
    /// the engine's queue already holds
    /// ``SyncEngineConfiguration/maxQueuedRequests`` requests: a session that
    /// awaits it before reading its client's next message stops reading
    /// while the engine is behind, so the queue stays bounded.
    ///
    /// - Returns: `false` when the engine has stopped and will not answer.
    @discardableResult
    public func submit(_ request: SessionRequest, from session: String) async -> Bool {
        await inbox.postRequest(.request(sessionID: session, request, received: .now))
    }

    /// Queues `request` as ``submit(_:from:)`` does when the engine's queue
    /// has room, without waiting (an event-loop session cannot wait).
    ///
    /// - Returns: `nil` when the queue is full (then wait with
    ///   ``whenRoomForRequests(_:)`` and try again), `false` when the engine
    ///   has stopped.
    func submitIfRoom(_ request: SessionRequest, from session: String) -> Bool? {
        inbox.postRequestIfRoom(.request(sessionID: session, request, received: .now))
    }

    /// Calls `resume` once the engine's queue may have room for a request
    /// (see ``submitIfRoom(_:from:)``), on the thread that made the room:
    /// it must only hand over to the caller's event loop.
    func whenRoomForRequests(_ resume: @escaping @Sendable () -> Void) {
        inbox.whenRoomForRequests(resume)
    }

    /// The joined sessions with their subscriptions and whether they are
    /// slow, in session-id order (devtools). Answered by the sequencer in
    /// turn with other requests; empty once the engine has stopped.
    public func sessions() async -> [SessionSummary] {
        await withCheckedContinuation { continuation in
            if !inbox.post(.listSessions { continuation.resume(returning: $0) }) {
                continuation.resume(returning: [])
            }
        }
    }

    /// The rejections kept in memory (``SyncEngineConfiguration/rejectionLogCapacity``)
    /// numbered above `sequence`, oldest first (devtools; the journal holds
    /// only accepted actions).
    public func rejections(after sequence: UInt64 = 0) -> [RejectedAction] {
        shared.rejections.withLock { $0.entries(after: sequence) }
    }

    /// Cancels the running effects (their later follow-ups are dropped),
    /// finishes the requests queued so far, waits for the last batch to be
    /// durable and answered, saves a final snapshot and closes the journal.
    /// Requests made after this are ignored.
    public func shutdown() async {
        await effects.shutdown()
        inbox.post(.shutdown)
        await inbox.finished()
    }
}

/// Hands the sequencer to each run's task. The inbox starts a run only
/// when none is going, under its lock, so two tasks never use the
/// sequencer at once and each sees what the one before it did.
private final class SequencerRuns<App: StateSyncApp>: @unchecked Sendable {
    let sequencer: Sequencer<App>

    init(_ sequencer: Sequencer<App>) {
        self.sequencer = sequencer
    }
}
