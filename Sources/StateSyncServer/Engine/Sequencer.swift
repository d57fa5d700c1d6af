import Synchronization
import Logging
import NIOCore
import StateSyncCore
import StateSyncJournal
import StateSyncProtocol

/// The engine's sequencer: it takes ``EngineInbox`` events in rounds, on one
/// task at a time, and hands each to the part that owns its invariant. It
/// decides only the order of those calls, and only it reaches the ``Journal``.
final class Sequencer<App: StateSyncApp> {
    let journal: any Journal
    /// The journal as one other servers write too, or `nil` when this engine writes it alone.
    let sharedJournal: (any SharedJournal)?
    let inbox: EngineInbox
    let shared: EngineShared
    let effects: EffectRunner<SessionCommand<App.Action>>
    let snapshots: SnapshotWriter
    let metrics: ServerMetrics
    let logger: Logger

    var authority: AuthoritativeState<App>
    var exactlyOnce: ExactlyOnce
    var commits = CommitPipeline()
    var publication: FanOutShards
    var snapshotPolicy: SnapshotPolicy
    /// Whether the recovered store was of an older schema version: the
    /// first run saves a snapshot of the app's.
    private let migratedOnOpen: Bool
    var stopping = false
    /// Whether the first run started the engine (``run()``).
    private var started = false
    /// Reads held until what their session caused is published.
    var ownWrites = OwnWrites()
    /// Following a shared journal (``Sequencer+Follow``).
    var following = FollowState()
    /// Resumes from revisions not published here yet (a shared journal only).
    var catchUps = CatchUpHolds()
    /// How long a resume waits for its revision (``SyncEngineConfiguration/catchUpTimeout``).
    let catchUpTimeout: Duration
    /// The store this engine serves.
    let store: StoreName
    /// The links to the writers of the stores this node does not write (a cluster).
    let links: ClusterLinks?
    /// The prefix of this node's own session ids in a cluster (its node id and `-`).
    let ownSessionPrefix: String?
    /// Dispatches forwarded to the store's writer (``Sequencer+Forward``).
    var forwards = ForwardState()
    /// Which route each session's unanswered dispatches are on (a cluster's node with links).
    var routes = DispatchRoutes()

    init(
        journal: any Journal, configuration: SyncEngineConfiguration, pipeline: ActionPipeline<App.State, SessionCommand<App.Action>>,
        effects: EffectRunner<SessionCommand<App.Action>>, metrics: ServerMetrics, logger: Logger,
        inbox: EngineInbox, shared: EngineShared, recovered: RecoveredState<App>, outcomeClients: [String],
        outcomePairs: OutcomePairFilter?,
        eventLoops: any EventLoopGroup
    ) {
        self.journal = journal
        sharedJournal = journal as? any SharedJournal
        catchUpTimeout = configuration.catchUpTimeout
        store = configuration.store
        links = configuration.links
        ownSessionPrefix = sharedJournal?.nodeSessionPrefix
        self.inbox = inbox
        self.shared = shared
        self.effects = effects
        self.snapshots = SnapshotWriter(journal: journal, schemaVersion: App.schemaVersion, logger: logger)
        self.metrics = metrics
        self.logger = logger
        authority = AuthoritativeState(
            recovered: recovered, pipeline: pipeline, clock: configuration.clock, maxStateBytes: configuration.maxStateBytes)
        exactlyOnce = ExactlyOnce(
            capacity: configuration.rememberedOutcomes, retention: configuration.outcomeRetention,
            journalRevision: recovered.revision, restoredClients: outcomeClients, restoredPairs: outcomePairs,
            sharedJournal: sharedJournal != nil, now: configuration.clock())
        publication = FanOutShards(
            eventLoops: eventLoops, state: recovered.mirror.json, revision: recovered.revision,
            history: (configuration.historyWindow, configuration.historyBudget),
            deferredLimits: (configuration.maxDeferredAnswers, configuration.maxDeferredBytes),
            metrics: metrics, logger: logger, shared: shared,
            encoder: MessageEncoder(store: configuration.store, epoch: recovered.epoch))
        snapshotPolicy = SnapshotPolicy(every: configuration.snapshotEvery, lastRevision: recovered.snapshotRevision)
        migratedOnOpen = recovered.migratedFrom != nil
    }

    /// One run (see ``EngineInbox``): the first starts the engine; each takes
    /// rounds until the inbox is empty. The final run takes the last snapshot and
    /// closes the journal.
    func run() async {
        if !started {
            started = true
            start()
        }
        while let events = inbox.nextRound() {
            await prefetchOutcomes(for: events)
            for event in events {
                await handle(event)
            }
            exactlyOnce.endRound()
            await catchUpIfBehind()
            releaseForwardedAcks()
            await releaseHeldRequests()
            flush()
            // Answers the flush published (no journal write) may let a dispatch that waited for its routes go (a cluster's node).
            while links != nil, ownWrites.holdsSettledDispatch(routesSettled: routes.isSettled) {
                await releaseHeldRequests()
                flush()
            }
            if stopping, commits.isIdle, following.isIdle { return await finish() }
        }
    }

    /// Journals `serverStarted` and starts following a shared journal. It is
    /// journaled only over a history it changes, and never on a cluster's journal,
    /// where it would drop other nodes' live sessions (``ClusterPresence`` handles those).
    private func start() {
        let (inbox, shared) = (inbox, shared)
        sharedJournal?.follow { head in inbox.post(.journalHint(head)) }
        sharedJournal?.watchWriter { writer in shared.writer.withLock { $0 = writer } }
        if migratedOnOpen {
            // The migrated state, stored at the app's version: the next open reads it as it is.
            snapshots.save(publication.state, at: publication.revision)
            _ = snapshotPolicy.take(at: publication.revision, force: true)
        }
        if sharedJournal?.clusterPresence == nil, authority.revision > 0, !authority.changesNothing(.serverStarted) {
            applyServerCommand(.serverStarted, clientID: nil)
            flush()
        }
    }

    private func handle(_ event: EngineEvent) async {
        switch event {
        case let .join(info, clientID, role, sink, announced):
            publication.join(SessionRecord(info: info, clientID: clientID, role: role, sink: sink, announced: announced))
            shared.sessionCount.store(publication.sessions.count, ordering: .relaxed)
            logger.debug("session joined", metadata: ["session": "\(info.id)", "role": "\(role.rawValue)"])
            if announced {
                applyServerCommand(.sessionJoined(info), clientID: clientID)
                if authority.revision > publication.revision { ownWrites.caused(authority.revision, by: info.id) }
            }
        case let .changeRole(sessionID, role):
            publication.changeRole(of: sessionID, to: role)
        case .leave(let sessionID):
            ownWrites.left(sessionID)
            catchUps.left(sessionID)
            forwardingSessionLeft(sessionID)
            guard let session = publication.leave(sessionID) else { return }
            shared.sessionCount.store(publication.sessions.count, ordering: .relaxed)
            logger.debug("session left", metadata: ["session": "\(sessionID)"])
            if session.announced { applyServerCommand(.sessionLeft(session.info), clientID: session.clientID) }
        case let .request(sessionID, request, received):
            guard !holdUntilCaughtUp(request, from: sessionID, received: received) else { return }
            guard !ownWrites.hold(request, from: sessionID, received: received, published: publication.revision) else { return }
            if await perform(request, from: sessionID, received: received) {
                ownWrites.holdAhead([.init(sessionID: sessionID, request: request, received: received, revision: 0, waitsForRoutes: true)])
            }
        case let .system(journaled, reduced):
            applySystemCommand(journaled)
            reduced.resume()
        case let .announceSessions(present, announced):
            announced.resume(returning: announceSessions(except: present))
        case .listSessions(let reply):
            publication.summaries(reply)
        case .durable(let result):
            durable(result)
        case .journalHint(let head):
            following.hintedHead = max(following.hintedHead, head)
        case let .forwardAnswered(sessionID, id, action, received, outcome):
            await forwardAnswered(sessionID: sessionID, id: id, action: action, received: received, outcome: outcome)
        case .deadline:
            catchUps.wakeUpPending = false   // the round's releaseHeldRequests answers what expired
        case .shutdown:
            stopping = true
        }
    }

    /// Carries out a session's request (see ``SessionRequest``); returns
    /// whether it is a dispatch that must wait for its session's dispatches
    /// on the other route (``DispatchRoutes``), which the caller holds.
    private func perform(_ request: SessionRequest, from sessionID: String, received: ContinuousClock.Instant) async -> Bool {
        switch request {
        case let .subscribe(id, path, since):
            publication.withShard(of: sessionID) { $0.subscribe(sessionID: sessionID, id: id, path: path, since: since) }
        case .unsubscribe(let id):
            publication.withShard(of: sessionID) { $0.unsubscribe(sessionID: sessionID, id: id) }
        case let .get(id, path):
            publication.get(sessionID: sessionID, id: id, path: path)
        case let .dispatch(id, action):
            return await dispatch(action, id: id, from: sessionID, received: received)
        }
        return false
    }

    /// Carries out `held` unless its session has one in `again`; a dispatch whose
    /// route changed since it was held goes into `again`, which the caller holds.
    func perform(_ held: OwnWrites.HeldRequest, holdingIn again: inout OwnWrites.HeldAgain) async {
        guard !again.holds(held.sessionID) else { return again.hold(held) }
        if await perform(held.request, from: held.sessionID, received: held.received) {
            var waiting = held
            (waiting.revision, waiting.waitsForRoutes) = (0, true)
            again.hold(waiting)
        }
    }

    /// Carries out the held requests whose session's writes are published;
    /// all of them once nothing is left to publish (a write refused or
    /// failed publishes no revision of its own).
    private func releaseHeldRequests() async {
        let everything = (commits.isIdle && ownWrites.forwardsAnswered && forwards.acks.isEmpty) || commits.failure != nil
        var again = OwnWrites.HeldAgain()
        for held in ownWrites.release(published: publication.revision, everything: everything, routesSettled: routes.isSettled) {
            await perform(held, holdingIn: &again)
        }
        ownWrites.holdAhead(again.requests)
        let (ready, expired) = catchUps.release(published: publication.revision, now: .now)
        for held in ready {
            // Only resumes (subscribes) wait for a catch-up: none is a dispatch that could have to wait.
            _ = await perform(held.request, from: held.sessionID, received: held.received)
        }
        for held in expired {
            answerBehind(held)
        }
        scheduleWakeUp()
    }

    /// Posts ``EngineEvent/deadline`` at the earliest held deadline, unless
    /// a wake-up is pending already: one sleeping task, however many wait.
    private func scheduleWakeUp() {
        guard !catchUps.wakeUpPending, let deadline = catchUps.earliestDeadline else { return }
        catchUps.wakeUpPending = true
        let inbox = inbox
        Task {
            try? await Task.sleep(until: deadline)
            inbox.post(.deadline)
        }
    }

    /// Holds a `subscribe … since` a revision not published here yet, on a
    /// shared journal (see ``CatchUpHolds``), and asks for a catch-up now;
    /// returns whether it was held.
    private func holdUntilCaughtUp(_ request: SessionRequest, from sessionID: String, received: ContinuousClock.Instant) -> Bool {
        guard sharedJournal != nil, case let .subscribe(_, _, since?) = request, since > publication.revision else { return false }
        catchUps.hold(request, since: since, from: sessionID, received: received, deadline: .now + catchUpTimeout)
        following.hintedHead = max(following.hintedHead, since)
        return true
    }

    /// Answers a held resume whose revision this node did not reach in time:
    /// `error` `behind`, so that the client resumes on another node.
    private func answerBehind(_ held: CatchUpHolds.Held) {
        guard case .subscribe(let id, _, _) = held.request else { return }
        let error = ProtocolError.behind(revision: publication.revision, seen: held.since, id: id)
        logger.notice("a resume is ahead of this node", metadata: [
            "session": "\(held.sessionID)", "since": "\(held.since)", "rev": "\(publication.revision)"])
        publication.withShard(of: held.sessionID) { $0.deliver($0.encoder.encode(.error(error)), to: held.sessionID) }
    }
}
