import StateSyncJournal
import CoreMetrics
import Logging
import StateSyncCore
import StateSyncProtocol

/// What subscribers see: the published state, history, sessions and trie. It
/// owns invariant 4 of docs/PROTOCOL.md (no gaps, `base` chaining, answers
/// after their patches). Used only on its ``FanOutShard``'s loop; never waits.
struct Publication {
    /// The durable state subscribers see.
    private(set) var state: JSONValue
    /// Its revision.
    private(set) var revision: UInt64
    /// Recent published states, for `since` resumes and slow consumers.
    private(set) var history: HistoryWindow
    /// The joined sessions by id.
    var sessions: [String: SessionRecord] = [:]
    var trie = SubscriptionTrie()
    /// Writes this store's messages (named in them unless it is `main`).
    let encoder: MessageEncoder
    let metrics: ServerMetrics
    /// Marks sessions slow and asks their sinks to report the drain.
    let slowConsumers: SlowConsumerWatch
    /// Encodes large snapshots and values off the shard's event loop.
    let answerEncoder: AnswerEncoder
    /// How much may be held back for one slow session before it is closed.
    let deferredLimits: (count: Int, bytes: Int)
    /// The change whose patches are being sent, a slice at a time; `nil`
    /// between changes.
    var round: FanOutRound?

    /// A publication of `state` at `revision`; `deferredLimits` default to
    /// those of ``SyncEngineConfiguration``.
    init(
        state: JSONValue, revision: UInt64, history: (capacity: Int, budget: Int),
        deferredLimits: (count: Int, bytes: Int) = (1_024, 1 << 20),
        metrics: ServerMetrics, logger: Logger, encoder: MessageEncoder = MessageEncoder(),
        drained: @escaping @Sendable (String) -> Void
    ) {
        self.encoder = encoder
        self.state = state
        self.revision = revision
        self.history = HistoryWindow(capacity: history.capacity, costBudget: history.budget, revision: revision, state: state)
        self.metrics = metrics
        self.slowConsumers = SlowConsumerWatch(metrics: metrics, logger: logger, drained: drained)
        self.answerEncoder = AnswerEncoder(metrics: metrics, encoder: encoder)
        self.deferredLimits = deferredLimits
    }

    // MARK: Sessions

    /// Registers a joined session.
    mutating func join(_ record: SessionRecord) {
        sessions[record.info.id] = record
    }

    /// The session's role is now `role` (its token was refreshed).
    mutating func changeRole(of sessionID: String, to role: Role) {
        sessions[sessionID]?.role = role
    }

    /// Forgets the session and its subscriptions; returns its record.
    mutating func leave(_ sessionID: String) -> SessionRecord? {
        guard let session = sessions.removeValue(forKey: sessionID) else { return nil }
        for (id, path) in session.subscriptions {
            trie.remove(SubscriberKey(sessionID: sessionID, id: id), at: path)
        }
        return session
    }

    // MARK: Publishing

    /// Makes `published` visible: history, then patches, then answers. Visits at
    /// most `limit` subscriptions; until it returns `true`, only
    /// ``continuePublishing(limit:)`` may be called.
    @discardableResult
    mutating func publish(_ published: PublishedChange, limit: Int = .max) -> Bool {
        precondition(round == nil, "a change published while the previous one's round is still being sent")
        guard let last = published.state else {
            answer(published.answers)
            return true
        }
        let old = state
        state = last
        revision += UInt64(published.revisions)
        history.append(last, at: revision, cost: published.change.cost)
        startFanOut(from: old, to: last, changed: published.change.paths, answers: published.answers)
        return continuePublishing(limit: limit)
    }

    /// Sends each answer (`ack` or `reject`) and measures dispatch → answer.
    mutating func answer(_ answers: [DispatchAnswer]) {
        guard !answers.isEmpty else { return }
        let now = ContinuousClock.now
        for answer in answers {
            let message: [UInt8]
            switch answer.outcome {
            case .accepted(let revision):
                message = encoder.encode(.ack(id: answer.actionID, rev: revision))
                if !answer.isDuplicate { metrics.actionsAccepted.increment() }
            case let .rejected(code, text):
                message = encoder.encode(.reject(id: answer.actionID, code: RejectCode(rawValue: code), message: text))
                if !answer.isDuplicate { metrics.actionsRejected.increment() }
            }
            if answer.isDuplicate { metrics.duplicateDispatches.increment() }
            metrics.dispatchToAck.recordInterval(since: answer.received, now: now)
            deliver(message, to: answer.sessionID)
        }
    }

    /// Sends `message` to the session now, or holds it back while the
    /// session is slow (answers must follow the patches they depend on).
    mutating func deliver(_ message: [UInt8], to sessionID: String) {
        guard let position = sessions.index(forKey: sessionID) else { return }
        let watch = slowConsumers
        if watch.admits(&sessions.values[position]) {
            send(message, to: sessions.values[position])
        } else {
            hold(.message(message), at: position)
        }
    }

    /// Writes `message` to `session`'s sink and counts its bytes.
    func send(_ message: [UInt8], to session: SessionRecord) {
        session.sink.send(message)
        metrics.bytesSent.increment(by: Int64(message.count))
    }
}
