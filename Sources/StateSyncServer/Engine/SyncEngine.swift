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
/// ``shutdown()`` returns at once: it queues a request for the sequencer (one
/// task), which handles each session's requests in order. Only durable
/// revisions are shown: a batch's patches go out before its `ack`s and
/// `reject`s (docs/DESIGN.md, section "Invariants"). Fan-out runs on one shard
/// per event loop; sessions of different shards have no order between them.
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

    /// Opens the engine on `journal`: restores the last snapshot and replays the
    /// later entries through `App.reducer` alone (no middleware, no effects). The
    /// engine owns the journal and closes it in ``shutdown()``.
    ///
    /// - Parameters:
    ///   - middleware: Runs around `App.reducer` for every command, in order.
    ///   - eventLoops: One fan-out shard per loop (default: NIO's shared group);
    ///     the group must outlive ``shutdown()``.
    /// - Throws: ``SyncEngineError`` when the journal does not replay into this
    ///   app's state; ``JournalError`` when it cannot be read.
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

    /// The app schema version another node wrote the store at, when newer than
    /// this app's: the engine then serves the store no more, so clients go to a
    /// node that knows it.
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

    /// How many times another node's `sessionLeft` removed a session live here;
    /// ``ClusterPresence`` announces the sessions again when it grows.
    var liveSessionsRemovedElsewhere: Int { shared.liveSessionsRemovedElsewhere.load(ordering: .relaxed) }

    /// Registers a session that completed `hello` and journals `sessionJoined`
    /// unless `announced` is `false` (short-lived sessions such as HTTP API
    /// requests). Send `welcome` with the returned epoch and revision first.
    ///
    /// - Parameters:
    ///   - clientID: Scopes action ids for exactly-once; without one, repeats
    ///     cannot be recognized.
    ///   - role: A `reader`'s dispatches are rejected `forbidden`.
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

    /// Journals `sessionLeft` for sessions this engine did not join (a dead
    /// node's, see ``ClusterPresence``, or this node's own at a clean shutdown).
    /// Returns once they are reduced into the building batch.
    func removeSessions(_ sessions: [SessionInfo]) async {
        for session in sessions {
            let journaled = SessionCommandCoding.encode(SessionCommand<App.Action>.sessionLeft(session))
            await withCheckedContinuation { reduced in
                if !inbox.post(.system(journaled: journaled, reduced: reduced)) { reduced.resume() }
            }
        }
    }

    /// Journals `sessionJoined` again for this engine's announced sessions not in
    /// `present`, whose presence another node removed (see ``ClusterPresence``).
    ///
    /// - Returns: How many were announced; 0 when the engine has stopped.
    func announceSessions(except present: Set<String>) async -> Int {
        await withCheckedContinuation { announced in
            if !inbox.post(.announceSessions(except: present, announced: announced)) { announced.resume(returning: 0) }
        }
    }

    /// Queues `request` of the joined session `session`; the answer goes to its
    /// sink (see ``SessionRequest``). It never waits, so it does not bound the
    /// queue: a session reading from a client uses ``submit(_:from:)``.
    ///
    /// - Returns: `false` when the engine has stopped and will not answer.
    @discardableResult
    public func handle(_ request: SessionRequest, from session: String) -> Bool {
        inbox.post(.request(sessionID: session, request, received: .now))
    }

    /// Queues `request` as ``handle(_:from:)`` does, but first waits while the
    /// queue holds ``SyncEngineConfiguration/maxQueuedRequests`` requests, so a
    /// session that awaits it before reading keeps the queue bounded.
    ///
    /// - Returns: `false` when the engine has stopped and will not answer.
    @discardableResult
    public func submit(_ request: SessionRequest, from session: String) async -> Bool {
        await inbox.postRequest(.request(sessionID: session, request, received: .now))
    }

    /// Queues `request` without waiting (an event-loop session cannot wait).
    ///
    /// - Returns: `nil` when the queue is full (wait with
    ///   ``whenRoomForRequests(_:)``), `false` when the engine has stopped.
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

    /// Cancels running effects, finishes the queued requests, waits for the last
    /// batch to be answered, saves a final snapshot and closes the journal.
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
