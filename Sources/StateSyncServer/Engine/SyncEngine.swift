import Synchronization
public import Logging
public import StateSyncCore
public import StateSyncProtocol

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
///   never with a gap. A session whose sink holds more than
///   ``SyncEngineConfiguration/outboundHighWaterMark`` bytes gets nothing
///   until ``sessionDrained(session:)``, then one coalesced patch per
///   subscription (or a snapshot if its base left the history window).
///
/// The session layer validates messages (hello first, roles, rate limits,
/// pointer syntax, subscription limits) and calls the engine only with valid
/// requests; the engine still rejects a dispatch from a `reader` with
/// `forbidden`.
///
/// ```swift
/// let journal = try await SQLiteJournal.open(configuration: .init(directory: dataDirectory), logger: logger)
/// let engine = try await SyncEngine<BoardApp>(journal: journal, logger: logger)
/// let welcome = engine.join(session: SessionInfo(id: "s-1", name: "alice"), clientID: "c-5f2a", role: .writer, sink: sink)
/// engine.subscribe(session: "s-1", id: "s1", path: try JSONPointer(parsing: "/todos"))
/// engine.dispatch(session: "s-1", id: "a1", action: ["type": "addTodo", "title": "Milk"])
/// // sink receives: snapshot s1, patch s1 (base → rev), ack a1
/// engine.leave(session: "s-1")
/// await engine.shutdown()
/// ```
public final class SyncEngine<App: StateSyncApp>: Sendable {
    private let inbox: EngineInbox
    private let shared: EngineShared
    private let loop: Task<Void, Never>

    /// Opens the engine on `journal`: restores the last snapshot, replays the
    /// entries after it through `App.reducer` with their recorded `Meta`,
    /// then starts the sequencer, which first journals `serverStarted`.
    /// The engine takes over the journal and closes it in ``shutdown()``.
    ///
    /// - Parameters:
    ///   - journal: Where accepted actions, outcomes and snapshots go
    ///     (``SQLiteJournal``, or ``MemoryJournal`` for `--memory`).
    ///   - configuration: Batching, history and slow-consumer settings.
    ///   - logger: Lifecycle at `info`, sessions at `debug`, each action at `trace`.
    /// - Throws: ``SyncEngineError`` when the journal does not replay into
    ///   this app's state; ``JournalError`` when it cannot be read.
    public init(
        journal: any Journal,
        configuration: SyncEngineConfiguration = SyncEngineConfiguration(),
        logger: Logger = Logger(label: "statesync.engine")
    ) async throws {
        let recovered = try await RecoveredState<App>.restore(from: journal)
        logger.info("engine recovered", metadata: [
            "epoch": "\(recovered.epoch)", "rev": "\(recovered.revision)", "snapshot": "\(recovered.snapshotRevision)",
        ])
        let inbox = EngineInbox()
        let shared = EngineShared(
            epoch: recovered.epoch, revision: recovered.revision, rejectionLogCapacity: configuration.rejectionLogCapacity)
        let sequencer = Sequencer<App>(
            journal: journal, configuration: configuration, logger: logger,
            inbox: inbox, shared: shared, recovered: recovered
        )
        self.inbox = inbox
        self.shared = shared
        // Awaited by `shutdown()`: the sequencer's one long-lived task.
        self.loop = Task { await sequencer.run() }
    }

    /// The journal's epoch (`welcome.epoch`).
    public var epoch: String { shared.epoch }

    /// The latest durable revision whose patches have been sent.
    public var revision: UInt64 { shared.publishedRevision.load(ordering: .acquiring) }

    /// The engine's counters (see ``EngineStatistics``), updated after each
    /// round of requests the sequencer handles.
    public var statistics: EngineStatistics { shared.statistics.withLock { $0 } }

    /// Registers a session that completed `hello` and journals
    /// `sessionJoined` (presence). Send `welcome` with the returned epoch and
    /// revision before calling anything else for this session.
    ///
    /// - Parameters:
    ///   - session: Its id (unique among open sessions) and name.
    ///   - clientID: The `clientId` from `hello`: scopes action ids for exactly-once;
    ///     without one, repeats cannot be recognized.
    ///   - role: What it may do; a `reader`'s dispatches are rejected `forbidden`.
    ///   - sink: Where its messages go.
    public func join(session: SessionInfo, clientID: String?, role: Role, sink: any SessionSink) -> EngineWelcome {
        inbox.post(.join(session, clientID: clientID, role: role, sink: sink))
        return EngineWelcome(epoch: shared.epoch, rev: revision)
    }

    /// Forgets the session and its subscriptions and journals `sessionLeft`.
    public func leave(session: String) {
        inbox.post(.leave(sessionID: session))
    }

    /// Opens subscription `id` at `path` (replacing an open one with the same
    /// id): a `snapshot`, or, when `since` is within the history window, a
    /// `patch` with `base` `since` (empty `ops` when nothing changed).
    public func subscribe(session: String, id: String, path: JSONPointer, since: UInt64? = nil) {
        inbox.post(.subscribe(sessionID: session, id: id, path: path, since: since))
    }

    /// Closes subscription `id` and sends `unsubscribed` (also for an unknown id).
    public func unsubscribe(session: String, id: String) {
        inbox.post(.unsubscribe(sessionID: session, id: id))
    }

    /// Sends `value` with the value at `path` (`null` when absent) at the latest durable revision.
    public func get(session: String, id: String, path: JSONPointer) {
        inbox.post(.get(sessionID: session, id: id, path: path))
    }

    /// Applies the client action `action` (the `dispatch` message's object),
    /// then sends `ack` once durable (after the patches up to its revision),
    /// or `reject` (`invalid_action` when it does not decode, `forbidden` for
    /// a reader, the reducer's code otherwise). A repeated `(clientId, id)`
    /// gets the original answer without applying the action again.
    public func dispatch(session: String, id: String, action: JSONObject) {
        inbox.post(.dispatch(sessionID: session, id: id, action: action, received: .now))
    }

    /// The session's sink has drained below its low-water mark: the engine
    /// sends what it held back (coalesced patches or snapshots, then answers).
    public func sessionDrained(session: String) {
        inbox.post(.drained(sessionID: session))
    }

    /// The joined sessions with their subscriptions and outbound backlog, in
    /// session-id order (devtools). Answered by the sequencer in turn with
    /// other requests; empty once the engine has stopped.
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

    /// Finishes the requests queued so far, waits for the last batch to be
    /// durable and answered, saves a final snapshot and closes the journal.
    /// Requests made after this are ignored.
    public func shutdown() async {
        inbox.post(.shutdown)
        await loop.value
    }
}
