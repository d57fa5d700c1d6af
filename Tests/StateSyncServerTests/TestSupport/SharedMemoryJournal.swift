import StateSyncCore
@testable import StateSyncServer
import StateSyncJournal
import Synchronization

/// One node's view of a store that several engines share, in memory: every
/// view appends to the same ``MemoryJournal``, which refuses a batch that
/// does not continue its head with a revision gap and writes nothing (as
/// PostgreSQL's compare-and-set does), and reads its entries and outcomes.
/// A batch holding a pair the store already has an outcome for is refused
/// with an outcome conflict, as PostgreSQL's commit refuses it.
/// The test says when other writers are announced (``announce()``, as a
/// notification would) and can lose the outcome of the next commit.
final class SharedMemoryJournal: SharedJournal {
    private struct Control {
        var hint: (@Sendable (UInt64) -> Void)?
        /// Which append's outcome is lost (the next one its batch matches),
        /// and whether it is written all the same.
        var lose: (landing: Bool, matching: @Sendable (JournalBatch) -> Bool)?
    }

    private let store: MemoryJournal
    private let control = Mutex(Control())
    /// Makes the pair check and the append of every view one step, as a
    /// transaction does.
    private static let appending = Mutex(())

    /// A view of `store`.
    init(store: MemoryJournal) {
        self.store = store
    }

    var epoch: String { store.epoch }
    var lastRevision: UInt64 { store.lastRevision }

    /// No presence: the engines under test journal their own sessions.
    var clusterPresence: (any ClusterPresence)? { nil }

    /// Nothing: the shared store's head is checked at every append.
    func caughtUp(through revision: UInt64) {}

    func follow(hint: @escaping @Sendable (UInt64) -> Void) {
        control.withLock { $0.hint = hint }
    }

    /// Tells the engine the store's head, as a notification would.
    func announce() {
        let hint = control.withLock { $0.hint }
        hint?(store.lastRevision)
    }

    /// Makes the next append whose batch is `matching` end with an unknown
    /// outcome, written to the store when `landing`.
    func loseNextCommit(landing: Bool, matching: @escaping @Sendable (JournalBatch) -> Bool = { _ in true }) {
        control.withLock { $0.lose = (landing, matching) }
    }

    func append(_ batch: JournalBatch, completion: @escaping @Sendable (Result<Void, JournalError>) -> Void) {
        let landing = control.withLock { control -> Bool? in
            guard let lose = control.lose, lose.matching(batch) else { return nil }
            control.lose = nil
            return lose.landing
        }
        guard let landing else { return appendChecked(batch, completion: completion) }
        let unknown = JournalError.commitOutcomeUnknown("memory", "the connection was lost during COMMIT")
        if landing {
            store.append(batch) { _ in completion(.failure(unknown)) }
        } else {
            completion(.failure(unknown))
        }
    }

    /// Appends `batch` unless the store already has an outcome for one of its pairs.
    private func appendChecked(_ batch: JournalBatch, completion: @escaping @Sendable (Result<Void, JournalError>) -> Void) {
        Self.appending.withLock { _ in
            let pairs = batch.entries.compactMap(\.outcomeKey) + batch.rejections.map(\.key)
            let decided = pairs.filter { (try? store.rememberedOutcome(of: $0)) != nil }.count
            guard decided == 0 else { return completion(.failure(.outcomeConflict(pairs: decided))) }
            store.append(batch, completion: completion)
        }
    }

    func saveSnapshot(_ snapshot: JournalSnapshot) async throws { try await store.saveSnapshot(snapshot) }
    func latestSnapshot() async throws -> JournalSnapshot? { try await store.latestSnapshot() }
    func snapshot(atOrBefore revision: UInt64) async throws -> JournalSnapshot? { try await store.snapshot(atOrBefore: revision) }
    func snapshotRevisions() async throws -> [UInt64] { try await store.snapshotRevisions() }
    func oldestRevision() async throws -> UInt64? { try await store.oldestRevision() }
    func entries(from: UInt64, through: UInt64) async throws -> [JournalEntry] { try await store.entries(from: from, through: through) }
    func outcome(clientID: String, actionID: String) async throws -> JournalOutcome? {
        try await store.outcome(clientID: clientID, actionID: actionID)
    }
    func outcomeClients() async throws -> [String] { try await store.outcomeClients() }
    /// Nothing: the store outlives each node's view.
    func close() async throws {}
}
