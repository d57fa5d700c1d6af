import DequeModule
import Synchronization

/// A ``Journal`` that keeps everything in memory, for `statesync serve
/// --memory`, tests and demos: the same rules as ``SQLiteJournal`` (no
/// revision gaps, first outcome of a pair wins, each clientId's outcomes
/// forgotten and trimmed only as batches say, snapshot retention), nothing
/// on disk, and bounded memory (the outcomes as the engine's
/// ``OutcomeRetention`` bounds them).
///
/// `append` validates and stores the batch under a lock and calls its
/// completion **before returning**, on the caller's thread: there is no disk
/// to wait for. The epoch is new for every instance, since the history does
/// not outlive the process.
///
/// ```swift
/// let journal = MemoryJournal()
/// try await journal.append(JournalBatch(entries: [entry]))
/// ```
public final class MemoryJournal: Journal {
    /// How much history a ``MemoryJournal`` keeps.
    public struct Configuration: Sendable, Hashable {
        /// How many snapshots are kept (the most recent). Default 3, as
        /// ``SQLiteJournal/Configuration``.
        public var snapshotsKept: Int
        /// How many journal entries are kept (the most recent); older ones
        /// are dropped and ``MemoryJournal/entries(from:through:)`` throws
        /// for them. Default 100,000: ~30 MB for ~200-byte actions, enough
        /// for time travel over a demo session, and it bounds a long-running
        /// `--memory` server.
        public var entryRetention: Int

        /// A configuration with the documented defaults.
        public init(snapshotsKept: Int = 3, entryRetention: Int = 100_000) {
            self.snapshotsKept = max(1, snapshotsKept)
            self.entryRetention = max(1, entryRetention)
        }
    }

    fileprivate struct Storage: Sendable {
        var closed = false
        var lastRevision: UInt64 = 0
        var entries: Deque<JournalEntry> = []
        var outcomes = ClientOutcomes()
        var snapshots: [JournalSnapshot] = []
    }

    /// A new epoch for this instance (see ``Journal/epoch``).
    public let epoch: String
    private let configuration: Configuration
    private let storage = Mutex(Storage())

    /// An empty journal with a new epoch.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.epoch = Epoch.random()
    }

    /// The highest durable revision (see ``Journal/lastRevision``).
    public var lastRevision: UInt64 {
        storage.withLock { $0.lastRevision }
    }

    /// Stores `batch` and calls `completion` before returning (see ``Journal/append(_:completion:)``).
    public func append(
        _ batch: JournalBatch, completion: @escaping @Sendable (Result<Void, JournalError>) -> Void
    ) {
        let configuration = configuration
        let result = storage.withLock { storage -> Result<Void, JournalError> in
            guard !storage.closed else { return .failure(.closed) }
            do throws(JournalError) {
                storage.lastRevision = try batch.revisionAfterAppending(to: storage.lastRevision)
            } catch {
                return .failure(error)
            }
            for client in batch.forgottenClients { storage.outcomes.forget(client) }
            for entry in batch.entries {
                storage.entries.append(entry)
                if let key = entry.outcomeKey { storage.outcomes.remember(.accepted(revision: entry.revision), for: key) }
            }
            for rejection in batch.rejections {
                storage.outcomes.remember(.rejected(code: rejection.code, message: rejection.message), for: rejection.key)
            }
            for (client, keep) in batch.outcomeTrims { storage.outcomes.trim(client, keeping: keep) }
            while storage.entries.count > configuration.entryRetention { storage.entries.removeFirst() }
            return .success(())
        }
        completion(result)
    }

    /// Stores `snapshot` and trims old ones (see ``Journal/saveSnapshot(_:)``).
    public func saveSnapshot(_ snapshot: JournalSnapshot) async throws {
        let kept = configuration.snapshotsKept
        try storage.withLock { storage throws(JournalError) in
            guard !storage.closed else { throw .closed }
            guard snapshot.revision <= storage.lastRevision else {
                throw .snapshotAhead(snapshot.revision, lastRevision: storage.lastRevision)
            }
            storage.snapshots.removeAll { $0.revision == snapshot.revision }
            storage.snapshots.append(snapshot)
            storage.snapshots.sort { $0.revision < $1.revision }
            storage.snapshots.removeFirst(max(0, storage.snapshots.count - kept))
        }
    }

    /// The most recent snapshot (see ``Journal/latestSnapshot()``).
    public func latestSnapshot() async throws -> JournalSnapshot? {
        try await snapshot(atOrBefore: .max)
    }

    /// The nearest snapshot at or before `revision` (see ``Journal/snapshot(atOrBefore:)``).
    public func snapshot(atOrBefore revision: UInt64) async throws -> JournalSnapshot? {
        try storage.withLock { storage throws(JournalError) in
            guard !storage.closed else { throw .closed }
            return storage.snapshots.last { $0.revision <= revision }
        }
    }

    /// The revisions of the kept snapshots (see ``Journal/snapshotRevisions()``).
    public func snapshotRevisions() async throws -> [UInt64] {
        try storage.withLock { storage throws(JournalError) in
            guard !storage.closed else { throw .closed }
            return storage.snapshots.map(\.revision)
        }
    }

    /// The oldest kept entry's revision (see ``Journal/oldestRevision()``).
    public func oldestRevision() async throws -> UInt64? {
        try storage.withLock { storage throws(JournalError) in
            guard !storage.closed else { throw .closed }
            return storage.entries.first?.revision
        }
    }

    /// The entries `from...through` (see ``Journal/entries(from:through:)``).
    public func entries(from: UInt64, through: UInt64) async throws -> [JournalEntry] {
        try storage.withLock { storage throws(JournalError) in
            guard !storage.closed else { throw .closed }
            let upper = min(through, storage.lastRevision)
            guard from <= upper else { return [] }
            let oldest = storage.entries.first?.revision ?? storage.lastRevision + 1
            guard from >= oldest else { throw .entriesDiscarded(requested: from, oldest: oldest) }
            let start = Int(from - oldest)
            return Array(storage.entries[start...(start + Int(upper - from))])
        }
    }

    /// The remembered outcome of a pair (see ``Journal/outcome(clientID:actionID:)``).
    public func outcome(clientID: String, actionID: String) async throws -> JournalOutcome? {
        try storage.withLock { storage throws(JournalError) in
            guard !storage.closed else { throw .closed }
            return storage.outcomes[OutcomeKey(clientID: clientID, actionID: actionID)]
        }
    }

    /// The clientIds with outcomes, least recent first (see ``Journal/outcomeClients()``).
    public func outcomeClients() async throws -> [String] {
        try storage.withLock { storage throws(JournalError) in
            guard !storage.closed else { throw .closed }
            return storage.outcomes.clientsByRecency
        }
    }

    /// Drops everything; later calls fail with "the journal is closed" (see ``Journal/close()``).
    public func close() async throws {
        storage.withLock { $0 = Storage(closed: true) }
    }
}
