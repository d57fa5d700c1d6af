import DequeModule
import StateSyncCore
import Synchronization

/// A ``Journal`` kept in memory, for `statesync serve --memory`, tests and demos:
/// the same rules as ``SQLiteJournal``, nothing on disk, and bounded memory.
/// `append` calls its completion before returning, on the caller's thread; the
/// epoch is new for every instance, as the history dies with the process.
///
/// ```swift
/// let journal = MemoryJournal()
/// try await journal.append(JournalBatch(entries: [entry]))
/// ```
public final class MemoryJournal: Journal {
    /// How much history a ``MemoryJournal`` keeps.
    public struct Configuration: Sendable, Hashable {
        /// Entries and snapshots are kept as ``SQLiteJournal`` keeps them, and never more
        /// than ``JournalRetention/bytes`` of entries (action, ids and 64 bytes each);
        /// dropped entries make ``MemoryJournal/entries(from:through:)`` throw.
        public var retention: JournalRetention

        /// A configuration with the documented defaults.
        public init(retention: JournalRetention = JournalRetention()) {
            self.retention = retention
        }
    }

    fileprivate struct Storage: Sendable {
        var closed = false
        var lastRevision: UInt64 = 0
        var entries: Deque<JournalEntry> = []
        /// The bytes ``MemoryJournal/Configuration/retention`` counts for `entries`.
        var entryBytes = 0
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
                storage.entryBytes += MemoryJournal.bytes(of: entry)
                if let key = entry.outcomeKey { storage.outcomes.remember(.accepted(revision: entry.revision), for: key) }
            }
            for rejection in batch.rejections {
                storage.outcomes.remember(.rejected(code: rejection.code, message: rejection.message), for: rejection.key)
            }
            for (client, keep) in batch.outcomeTrims { storage.outcomes.trim(client, keeping: keep) }
            storage.trim(configuration)
            return .success(())
        }
        completion(result)
    }

    /// Stores `snapshot` and trims old ones (see ``Journal/saveSnapshot(_:)``).
    public func saveSnapshot(_ snapshot: JournalSnapshot) async throws {
        let retention = configuration.retention
        try storage.withLock { storage throws(JournalError) in
            guard !storage.closed else { throw .closed }
            guard snapshot.revision <= storage.lastRevision else {
                throw .snapshotAhead(snapshot.revision, lastRevision: storage.lastRevision)
            }
            storage.snapshots.removeAll { $0.revision == snapshot.revision }
            storage.snapshots.append(snapshot)
            storage.snapshots.sort { $0.revision < $1.revision }
            storage.applyRetention(retention)
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
        try rememberedOutcome(of: OutcomeKey(clientID: clientID, actionID: actionID))
    }

    /// The remembered outcome of `key`, read without suspending.
    package func rememberedOutcome(of key: OutcomeKey) throws(JournalError) -> JournalOutcome? {
        try storage.withLock { storage throws(JournalError) in
            guard !storage.closed else { throw .closed }
            return storage.outcomes[key]
        }
    }

    /// The clientIds with outcomes, least recent first (see ``Journal/outcomeClients()``).
    public func outcomeClients() async throws -> [String] {
        try storage.withLock { storage throws(JournalError) in
            guard !storage.closed else { throw .closed }
            return storage.outcomes.clientsByRecency
        }
    }

    /// Every remembered pair (see ``Journal/outcomePairs()``).
    public func outcomePairs() async throws -> OutcomePairFilter? {
        try storage.withLock { storage throws(JournalError) in
            guard !storage.closed else { throw .closed }
            return storage.outcomes.pairFilter()
        }
    }

    /// Drops everything; later calls fail with "the journal is closed" (see ``Journal/close()``).
    public func close() async throws {
        storage.withLock { $0 = Storage(closed: true) }
    }
}

extension MemoryJournal.Storage {
    /// Drops the oldest entries beyond the byte bound (never the newest
    /// entry).
    fileprivate mutating func trim(_ configuration: MemoryJournal.Configuration) {
        while entries.count > 1, entryBytes > configuration.retention.bytes {
            entryBytes -= MemoryJournal.bytes(of: entries.removeFirst())
        }
    }

    /// After a snapshot, as ``SQLiteJournal`` does (see ``RetentionPlan``): drops the
    /// entries beyond the window, by revisions and bytes, and thins older snapshots.
    fileprivate mutating func applyRetention(_ retention: JournalRetention) {
        let revisions = snapshots.map(\.revision)
        guard let newest = revisions.last else { return }
        var cutoff = RetentionPlan.cutoff(newest: newest, revisions: retention.revisions)
        if let first = entries.first?.revision, newest >= first {
            // Bytes behind the newest snapshot, walking back from its entry.
            var total = 0
            var index = Int(min(newest, lastRevision) - first)
            while index >= 0, entries[index].revision > cutoff {
                total += MemoryJournal.bytes(of: entries[index])
                if total > retention.bytes {
                    cutoff = entries[index].revision
                    break
                }
                index -= 1
            }
        }
        let keepFrom = RetentionPlan.keepFrom(snapshots: revisions, cutoff: cutoff)
        while entries.count > 1, let first = entries.first, first.revision < keepFrom {
            entryBytes -= MemoryJournal.bytes(of: entries.removeFirst())
        }
        let kept = Set(RetentionPlan.thinned(revisions, below: keepFrom, keeping: retention.olderSnapshots))
        snapshots.removeAll { !kept.contains($0.revision) }
    }
}

extension MemoryJournal {
    /// What an entry counts toward ``JournalRetention/bytes``: its action,
    /// its ids and 64 bytes for the entry's own fields and storage.
    fileprivate static func bytes(of entry: JournalEntry) -> Int {
        entry.action.count + (entry.meta.clientID?.utf8.count ?? 0) + (entry.actionID?.utf8.count ?? 0) + 64
    }
}
