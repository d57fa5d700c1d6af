/// The durable history of one state, and the engine's one seam to storage:
/// an epoch, an append-only journal of accepted commands, the outcomes of
/// recent `(clientId, actionId)` pairs, and periodic snapshots. Acks wait for
/// ``append(_:completion:)`` to succeed ("ack means durable").
/// ``SQLiteJournal`` and ``MemoryJournal`` have this process as their only
/// writer; a journal other servers write too refines it as ``SharedJournal``.
///
/// A write the storage cannot take yet (full disk, lost connection) is retried
/// while ``writeFault`` says why; any other failed write is final. Methods
/// throw ``JournalError``.
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

    /// Writes `batch` in one transaction, with batches passed meanwhile, and calls
    /// `completion` once durable; a revision gap fails with ``JournalError/isRevisionGap``,
    /// unwritten. `completion` runs in `append` order, on the writer task or inline: never block.
    func append(_ batch: JournalBatch, completion: @escaping @Sendable (Result<Void, JournalError>) -> Void)

    /// Stores the full state at `snapshot.revision` (not past the last appended
    /// revision, written after earlier batches), then applies ``JournalRetention``.
    func saveSnapshot(_ snapshot: JournalSnapshot) async throws

    /// The most recent snapshot, or `nil` when none was saved.
    func latestSnapshot() async throws -> JournalSnapshot?

    /// The most recent snapshot at or before `revision` (for time travel), or
    /// `nil` when every kept snapshot is later.
    func snapshot(atOrBefore revision: UInt64) async throws -> JournalSnapshot?

    /// The revisions of the snapshots kept, oldest first (for time travel).
    func snapshotRevisions() async throws -> [UInt64]

    /// The revision of the oldest entry kept, or `nil` when there is none. Entries
    /// beyond ``JournalRetention`` are dropped; the newest is always kept.
    func oldestRevision() async throws -> UInt64?

    /// The durable entries with revisions in `from...through`, in order; fewer
    /// when the range passes ``lastRevision``. A ``MemoryJournal`` that dropped
    /// entries before `from` throws; stored journals return the kept ones.
    func entries(from: UInt64, through: UInt64) async throws -> [JournalEntry]

    /// The remembered outcome of `(clientID, actionID)`, or `nil` when the pair is
    /// unknown or was dropped by a batch (see ``JournalBatch``).
    func outcome(clientID: String, actionID: String) async throws -> JournalOutcome?

    /// The clientIds with remembered outcomes, least recently recorded first.
    func outcomeClients() async throws -> [String]

    /// Every remembered `(clientId, actionId)` pair, read once at start so a new
    /// pair needs no ``outcome(clientID:actionID:)`` lookup; `nil` when unlisted.
    /// A ``SharedJournal`` must return `nil`: pairs other servers decide later are missing.
    func outcomePairs() async throws -> OutcomePairFilter?

    /// Waits for pending writes, then releases the journal (and the data
    /// directory's lock). Later calls fail with "the journal is closed".
    func close() async throws
}

extension Journal {
    /// Not known to be empty: recovery reads what is stored (see ``Journal/isKnownEmpty``).
    public var isKnownEmpty: Bool { false }

    /// No write fault: a journal that never retries writes.
    public var writeFault: JournalWriteFault? { nil }

    /// `nil`: a journal that cannot list its pairs has each new one looked up.
    public func outcomePairs() async throws -> OutcomePairFilter? { nil }

    /// Writes `batch` and returns once it is durable (see ``append(_:completion:)``);
    /// for tests and tools, the hot path uses the completion form.
    public func append(_ batch: JournalBatch) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            append(batch) { result in continuation.resume(with: result) }
        }
    }

    /// What a server needs to rebuild its state: the epoch, the latest snapshot,
    /// and the entries after it, streamed `pageSize` (default 1,000) at a time.
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
