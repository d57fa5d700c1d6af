import Synchronization
import DequeModule
import Logging
import StateSyncCore
import StateSyncProtocol

/// The single owner of the app state, the JSON mirror, the journal and the
/// subscriptions. It runs in one task (``run()``) and handles the events of
/// ``EngineInbox`` in order; everything it sends goes through the sessions'
/// sinks from that task.
///
/// Batching: every round of the loop takes all queued events. Dispatches are
/// reduced at once into the *building* batch; at the end of the round the
/// building batch is handed to the journal when no other batch is in flight
/// (group commit: while one fsync runs, the next batch accumulates). When a
/// batch is durable it is *published*: patches to the subscriptions whose
/// slice changed, then the acks and rejects, then it enters the history.
/// Subscribers only ever see published (durable) revisions.
final class Sequencer<App: StateSyncApp> {
    let journal: any Journal
    let configuration: SyncEngineConfiguration
    let logger: Logger
    let inbox: EngineInbox
    let shared: EngineShared
    let encoder = MessageEncoder()
    /// `App.reducer`, read once.
    let reducer = App.reducer

    /// The reduced state, including batches not yet durable.
    var state: App.State
    var mirror: StateMirror<App>
    var headRevision: UInt64
    /// The durable state subscribers see.
    var published: JSONValue
    var publishedRevision: UInt64
    var history: HistoryWindow
    var lastSnapshotRevision: UInt64

    var sessions: [String: SessionRecord] = [:]
    var trie = SubscriptionTrie()
    var outcomes: OutcomeCache
    /// Whether the journal had history when the engine started (then a pair
    /// missing from memory may be in the journal's outcomes).
    let journalHasEarlierOutcomes: Bool
    /// Pairs of the current round that the journal was found not to know.
    var checkedAbsentOutcomes: Set<OutcomeKey> = []
    /// Whether the outcome cache has forgotten (or was reset on) any pair.
    var outcomesEvicted: Bool { outcomes.hasForgotten }
    var building = PendingBatch()
    var inFlight: PendingBatch?
    /// Why the engine stopped accepting actions (the journal failed, or the
    /// state stopped encoding); `nil` while healthy.
    var failure: String?
    var stopping = false
    var stats = EngineStatistics()

    init(
        journal: any Journal, configuration: SyncEngineConfiguration, logger: Logger,
        inbox: EngineInbox, shared: EngineShared, recovered: RecoveredState<App>
    ) {
        self.journal = journal
        self.configuration = configuration
        self.logger = logger
        self.inbox = inbox
        self.shared = shared
        self.state = recovered.state
        self.mirror = recovered.mirror
        self.headRevision = recovered.revision
        self.published = recovered.mirror.json
        self.publishedRevision = recovered.revision
        self.history = HistoryWindow(
            capacity: configuration.historyWindow, costBudget: configuration.historyBudget,
            revision: recovered.revision, state: recovered.mirror.json)
        self.lastSnapshotRevision = recovered.snapshotRevision
        self.outcomes = OutcomeCache(capacity: configuration.rememberedOutcomes)
        self.journalHasEarlierOutcomes = recovered.revision > 0
    }

    /// Journals `serverStarted`, then handles events until ``EngineEvent/shutdown``
    /// and the last batch are done; takes the final snapshot and closes the journal.
    func run() async {
        reduceLifecycle(.serverStarted, bytes: CommandCoding.serverStarted, clientID: nil)
        flush()
        for await _ in inbox.signals {
            let events = inbox.takeAll()
            await prefetchOutcomes(for: events)
            for event in events {
                await handle(event)
            }
            checkedAbsentOutcomes.removeAll(keepingCapacity: true)
            flush()
            shared.statistics.withLock { $0 = stats }
            if stopping, inFlight == nil, building.isEmpty { break }
        }
        await finish()
    }

    private func handle(_ event: EngineEvent) async {
        switch event {
        case let .join(info, clientID, role, sink):
            join(info, clientID: clientID, role: role, sink: sink)
        case .leave(let sessionID):
            leave(sessionID)
        case let .subscribe(sessionID, id, path, since):
            subscribe(sessionID: sessionID, id: id, path: path, since: since)
        case let .unsubscribe(sessionID, id):
            unsubscribe(sessionID: sessionID, id: id)
        case let .get(sessionID, id, path):
            let value = published[path] ?? .null
            deliver(encoder.encode(.value(id: id, rev: publishedRevision, value: value)), to: sessionID)
        case let .dispatch(sessionID, id, action, received):
            await dispatch(sessionID: sessionID, id: id, action: action, received: received)
        case .drained(let sessionID):
            drained(sessionID)
        case .listSessions(let reply):
            reply(sessionSummaries())
        case .durable(let result):
            await durable(result)
        case .shutdown:
            stopping = true
        }
    }

    /// Hands the building batch to the journal when none is in flight.
    private func flush() {
        guard inFlight == nil, !building.isEmpty else { return }
        var batch = building
        building = PendingBatch()
        if batch.revisions > 0 { batch.state = mirror.json }
        if let failure, !batch.journal.entries.isEmpty {
            fail(batch, reason: failure)
            return
        }
        if batch.journal.isEmpty {
            // Only answers (repeats, or rejections after a failure):
            // everything before them is durable already.
            publish(batch)
            return
        }
        inFlight = batch
        stats.journalAppends += 1
        let inbox = inbox
        journal.append(batch.journal) { result in inbox.post(.durable(result)) }
    }

    private func durable(_ result: Result<Void, JournalError>) async {
        guard let batch = inFlight else { return }
        inFlight = nil
        switch result {
        case .success:
            publish(batch)
            await snapshotIfDue()
        case .failure(let error):
            logger.critical("journal write failed; the engine accepts no more actions", metadata: ["error": "\(error)"])
            failure = "the journal failed: \(error)"
            fail(batch, reason: "the journal failed: \(error)")
        }
    }

    /// The batch will never be durable: its accepted actions are answered
    /// with `internal_error` (the engine accepts nothing more, so their
    /// revisions are never exposed), its rejections as decided; the same
    /// goes for the batch accumulating behind it.
    private func fail(_ batch: PendingBatch, reason: String) {
        // Forget the outcomes decided in memory: a retry must not get an ack
        // for an action that is not durable (the journal answers for the rest).
        outcomes = OutcomeCache(capacity: configuration.rememberedOutcomes, hasForgotten: true)
        var failed = batch
        failed.state = nil
        failed.journal = JournalBatch()
        for index in failed.answers.indices {
            if case .accepted = failed.answers[index].outcome {
                failed.answers[index].outcome = .rejected(code: "internal_error", message: reason)
            }
        }
        publish(failed)
        if !building.isEmpty {
            let pending = building
            building = PendingBatch()
            fail(pending, reason: reason)
        }
    }

    /// The joined sessions for devtools, in id order.
    private func sessionSummaries() -> [SessionSummary] {
        sessions.values.sorted { $0.info.id < $1.info.id }.map { record in
            SessionSummary(
                id: record.info.id, name: record.info.name, clientID: record.clientID, role: record.role,
                subscriptions: record.subscriptions.sorted { $0.key < $1.key }
                    .map { SessionSummary.Subscription(id: $0.key, path: $0.value.description) },
                bufferedBytes: record.sink.bufferedBytes, isSlow: record.isSlow)
        }
    }

    private func finish() async {
        if failure == nil {
            await saveSnapshot()
        }
        do {
            try await journal.close()
        } catch {
            logger.error("closing the journal failed", metadata: ["error": "\(error)"])
        }
        for case .listSessions(let reply) in inbox.finish() { reply([]) }
        shared.statistics.withLock { $0 = stats }
        logger.info("engine stopped", metadata: ["rev": "\(publishedRevision)"])
    }
}
