public import StateSyncJournal
extension SQLiteJournal {
    /// The most recent snapshot (see ``Journal/latestSnapshot()``).
    public func latestSnapshot() async throws -> JournalSnapshot? {
        try await read("read the latest snapshot") { try JournalStatements.snapshot($0, atOrBefore: .max) }
    }

    /// The nearest snapshot at or before `revision` (see ``Journal/snapshot(atOrBefore:)``).
    public func snapshot(atOrBefore revision: UInt64) async throws -> JournalSnapshot? {
        try await read("read the snapshot at or before revision \(revision)") {
            try JournalStatements.snapshot($0, atOrBefore: revision)
        }
    }

    /// The revisions of the kept snapshots (see ``Journal/snapshotRevisions()``).
    public func snapshotRevisions() async throws -> [UInt64] {
        try await read("list the snapshots") { try JournalStatements.snapshotRevisions($0) }
    }

    /// The oldest entry's revision (see ``Journal/oldestRevision()``).
    public func oldestRevision() async throws -> UInt64? {
        try await read("read the oldest revision") { try JournalStatements.oldestRevision($0) }
    }

    /// The entries `from...through` (see ``Journal/entries(from:through:)``).
    public func entries(from: UInt64, through: UInt64) async throws -> [JournalEntry] {
        try await read("read entries \(from)...\(through)") {
            try JournalStatements.entries($0, from: from, through: through)
        }
    }

    /// The remembered outcome of a pair (see ``Journal/outcome(clientID:actionID:)``).
    public func outcome(clientID: String, actionID: String) async throws -> JournalOutcome? {
        try await read("read the outcome of (\(clientID), \(actionID))") {
            try JournalStatements.outcome($0, clientID: clientID, actionID: actionID)
        }
    }

    /// The clientIds with outcomes, least recent first (see ``Journal/outcomeClients()``).
    public func outcomeClients() async throws -> [String] {
        try await read("list the clientIds with outcomes") { try JournalStatements.outcomeClients($0) }
    }

    /// Every remembered pair (see ``Journal/outcomePairs()``): one scan of the outcomes table.
    public func outcomePairs() async throws -> OutcomePairFilter? {
        try await read("list the remembered (clientId, id) pairs") { try JournalStatements.outcomePairs($0) }
    }
}
