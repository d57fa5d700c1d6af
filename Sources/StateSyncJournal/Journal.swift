/// The durable history of one StateSync state, and the engine's one seam to
/// storage: an epoch, an append-only journal of accepted commands, the
/// outcomes of recent `(clientId, actionId)` pairs, and periodic snapshots.
/// ``SQLiteJournal`` keeps it on disk; ``MemoryJournal`` keeps it in memory
/// for `--memory` runs.
///
/// The engine reaches storage only through this protocol, from three
/// places: recovery (``recovery(pageSize:)``, replayed through the reducer
/// alone), the sequencer's group commit (``append(_:completion:)``, whose
/// success is what lets acks leave, "ack means durable") and its
/// exactly-once lookups (``outcome(clientID:actionID:)``), and the snapshot
/// writer (``saveSnapshot(_:)``, off the sequencer).
///
/// This protocol is what one engine needs of a journal it writes alone
/// (SQLite, memory: this process is the only writer, so the revisions it
/// appends always continue its own). A journal that other servers write too
/// refines it as ``SharedJournal``.
///
/// A write that fails because the storage is failing or unreachable (a full
/// disk, a lost connection) is retried by the stored journals' shared
/// ``GroupCommitWriter`` until it succeeds (its completion waits), and
/// ``writeFault`` says why meanwhile: the engine refuses new actions with
/// `unavailable` and `/health` answers 503. Any other failed write is final:
/// the journal fails every later write with the same error, and the engine
/// stops accepting actions.
///
/// ```swift
/// let journal = MemoryJournal()                                 // or SQLiteJournal, PostgresJournal
/// let engine = try await SyncEngine<Board>(journal: journal)   // recovers, then owns the journal
/// // Or by hand: one batch, durable when the completion reports success.
/// journal.append(JournalBatch(entries: [entry])) { result in
///     eventLoop.execute { answer(result) }   // never block in the completion
/// }
/// try await journal.saveSnapshot(JournalSnapshot(revision: entry.revision, state: stateBytes))
/// try await journal.close()
/// ```
public protocol Journal: AnyObject, Sendable {
    /// The id of this history, created with a fresh journal and stable across
    /// reopening it (`welcome.epoch`): `"e-"` and 32 hexadecimal digits.
    var epoch: String { get }

    /// The highest revision that is durable (0 when the journal is empty).
    var lastRevision: UInt64 { get }

    /// Whether nothing is stored in this journal yet, no entry, snapshot or
    /// outcome (a store its open created, until its first write), so that
    /// recovering it reads nothing. `false` when unknown (the default).
    var isKnownEmpty: Bool { get }

    /// Why writes are failing right now while the journal retries them, or
    /// why they failed for good (``JournalWriteFault/isFinal``), or `nil`
    /// when they succeed (always `nil` for ``MemoryJournal``).
    var writeFault: JournalWriteFault? { get }

    /// Writes `batch` in one transaction with one fsync and calls
    /// `completion` once it is durable, or with the error that stopped it.
    ///
    /// Entries must continue the revisions of every earlier `append` with no
    /// gap; a batch that does not fails with ``JournalError/isRevisionGap``
    /// and is not written (the journal stays usable). Batches passed while an
    /// earlier one is being written are committed together (group commit).
    /// `completion` runs on the journal's writer task (``GroupCommitWriter``)
    /// or before `append` returns (``MemoryJournal``): hop to your own event
    /// loop or executor inside it, and never block in it. Completions run in
    /// the order of the `append` calls.
    func append(_ batch: JournalBatch, completion: @escaping @Sendable (Result<Void, JournalError>) -> Void)

    /// Stores the full state at `snapshot.revision`, then drops the entries
    /// and snapshots beyond the journal's ``JournalRetention``. The revision
    /// must not be past the last appended revision; it is written after
    /// every batch appended before the call.
    ///
    /// - Throws: ``JournalError``.
    func saveSnapshot(_ snapshot: JournalSnapshot) async throws

    /// The most recent snapshot, or `nil` when none was saved.
    ///
    /// - Throws: ``JournalError``.
    func latestSnapshot() async throws -> JournalSnapshot?

    /// The most recent snapshot at or before `revision` (for time travel), or
    /// `nil` when every kept snapshot is later.
    ///
    /// - Throws: ``JournalError``.
    func snapshot(atOrBefore revision: UInt64) async throws -> JournalSnapshot?

    /// The revisions of the snapshots kept, oldest first (for time travel:
    /// a state can be rebuilt from the nearest one at or below it).
    ///
    /// - Throws: ``JournalError``.
    func snapshotRevisions() async throws -> [UInt64]

    /// The revision of the oldest entry still kept, or `nil` when there is
    /// none. Journals drop the oldest entries beyond their
    /// ``JournalRetention`` (stored ones when they store a snapshot,
    /// ``MemoryJournal`` also as it appends); the newest entry is always kept.
    ///
    /// - Throws: ``JournalError``.
    func oldestRevision() async throws -> UInt64?

    /// The durable entries with revisions in `from...through`, in order;
    /// fewer (or none) when the range goes past ``lastRevision``.
    ///
    /// - Throws: ``JournalError`` (a ``MemoryJournal`` that dropped entries
    ///   before `from` throws rather than return a shorter history; stored
    ///   journals return the kept ones, which ``JournalReplay`` reports as
    ///   missing).
    func entries(from: UInt64, through: UInt64) async throws -> [JournalEntry]

    /// The remembered outcome of `(clientID, actionID)`, or `nil` when the
    /// pair is unknown, or was dropped by a batch's `forgottenClients` or
    /// `outcomeTrims` (see ``JournalBatch``).
    ///
    /// - Throws: ``JournalError``.
    func outcome(clientID: String, actionID: String) async throws -> JournalOutcome?

    /// The clientIds with remembered outcomes, least recently recorded
    /// first (the engine's table of clientIds after a restart).
    ///
    /// - Throws: ``JournalError``.
    func outcomeClients() async throws -> [String]

    /// Every `(clientId, actionId)` pair with a remembered outcome, read
    /// once when an engine starts so that, after a restart, a new pair is
    /// known to be new without a lookup (``outcome(clientID:actionID:)``);
    /// `nil` when this journal cannot list them (each new pair is then
    /// looked up). Costs one read of the outcomes, bounded by their
    /// retention (``OutcomeRetention``).
    ///
    /// Only a journal that one engine writes alone may list them: a
    /// ``SharedJournal`` must return `nil`, since pairs another server
    /// decides after this one started are not in the list, and a retry of
    /// one of them would be applied again.
    ///
    /// - Throws: ``JournalError``.
    func outcomePairs() async throws -> OutcomePairFilter?

    /// Waits for pending writes, then releases the journal (and the data
    /// directory's lock). Later calls fail with "the journal is closed".
    ///
    /// - Throws: ``JournalError`` when the last writes or closing failed.
    func close() async throws
}

extension Journal {
    /// Not known to be empty: recovery reads what is stored (see ``Journal/isKnownEmpty``).
    public var isKnownEmpty: Bool { false }

    /// No write fault: a journal that never retries writes.
    public var writeFault: JournalWriteFault? { nil }

    /// `nil`: a journal that cannot list its pairs has each new one looked up.
    public func outcomePairs() async throws -> OutcomePairFilter? { nil }

    /// Writes `batch` durably and returns when it is on disk (see
    /// ``append(_:completion:)``). Convenient for tests and tools; the server's
    /// hot path uses the completion form, which costs no task per batch.
    ///
    /// - Throws: ``JournalError``.
    public func append(_ batch: JournalBatch) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            append(batch) { result in continuation.resume(with: result) }
        }
    }

    /// What a server needs to rebuild its state: the epoch, the latest
    /// snapshot, and the entries after it as a stream read `pageSize` entries
    /// at a time (so a long journal is never held in memory at once).
    ///
    /// - Parameter pageSize: Entries read per query; 1,000 by default, large
    ///   enough that per-query cost is negligible, small enough that a page of
    ///   ~200-byte actions is a few hundred KB.
    /// - Throws: ``JournalError``.
    public func recovery(pageSize: Int = 1_000) async throws -> JournalRecovery {
        let lastRevision = lastRevision
        let snapshot = isKnownEmpty ? nil : try await latestSnapshot()
        let replay = JournalReplay(
            journal: self,
            after: snapshot?.revision ?? 0,
            through: lastRevision,
            pageSize: pageSize
        )
        return JournalRecovery(epoch: epoch, snapshot: snapshot, lastRevision: lastRevision, entries: replay)
    }
}
