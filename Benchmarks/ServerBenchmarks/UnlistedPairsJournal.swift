import StateSyncJournal
import StateSyncServer

/// A journal that does not list its remembered pairs (``Journal/outcomePairs()``
/// is `nil`), so an engine on it looks up every new pair after a restart:
/// the engine as it was before the pairs were read at start (the baseline).
final class UnlistedPairsJournal: Journal {
    private let base: any Journal

    init(_ base: any Journal) {
        self.base = base
    }

    var epoch: String { base.epoch }
    var lastRevision: UInt64 { base.lastRevision }
    var writeFault: JournalWriteFault? { base.writeFault }
    func append(_ batch: JournalBatch, completion: @escaping @Sendable (Result<Void, JournalError>) -> Void) {
        base.append(batch, completion: completion)
    }
    func saveSnapshot(_ snapshot: JournalSnapshot) async throws { try await base.saveSnapshot(snapshot) }
    func latestSnapshot() async throws -> JournalSnapshot? { try await base.latestSnapshot() }
    func snapshot(atOrBefore revision: UInt64) async throws -> JournalSnapshot? { try await base.snapshot(atOrBefore: revision) }
    func snapshotRevisions() async throws -> [UInt64] { try await base.snapshotRevisions() }
    func oldestRevision() async throws -> UInt64? { try await base.oldestRevision() }
    func entries(from: UInt64, through: UInt64) async throws -> [JournalEntry] { try await base.entries(from: from, through: through) }
    func outcome(clientID: String, actionID: String) async throws -> JournalOutcome? {
        try await base.outcome(clientID: clientID, actionID: actionID)
    }
    func outcomeClients() async throws -> [String] { try await base.outcomeClients() }
    func close() async throws { try await base.close() }
}
