public import StateSyncJournal
extension SQLiteJournal {
    /// The most recent snapshot (see ``Journal/latestSnapshot()``).
    public func latestSnapshot() async throws -> JournalSnapshot? {
        try await read("read the latest snapshot") { [scope] in try JournalStatements.snapshot($0, scope: scope, atOrBefore: .max) }
    }

    /// The nearest snapshot at or before `revision` (see ``Journal/snapshot(atOrBefore:)``).
    public func snapshot(atOrBefore revision: UInt64) async throws -> JournalSnapshot? {
        try await read("read the snapshot at or before revision \(revision)") { [scope] in
            try JournalStatements.snapshot($0, scope: scope, atOrBefore: revision)
        }
    }

    /// The revisions of the kept snapshots (see ``Journal/snapshotRevisions()``).
    public func snapshotRevisions() async throws -> [UInt64] {
        try await read("list the snapshots") { [scope] in try JournalStatements.snapshotRevisions($0, scope: scope) }
    }

    /// The oldest entry's revision (see ``Journal/oldestRevision()``).
    public func oldestRevision() async throws -> UInt64? {
        try await read("read the oldest revision") { [scope] in try JournalStatements.oldestRevision($0, scope: scope) }
    }

    /// The entries `from...through` (see ``Journal/entries(from:through:)``).
    public func entries(from: UInt64, through: UInt64) async throws -> [JournalEntry] {
        try await read("read entries \(from)...\(through)") { [scope] in
            try JournalStatements.entries($0, scope: scope, from: from, through: through)
        }
    }

    /// The remembered outcome of a pair (see ``Journal/outcome(clientID:actionID:)``).
    public func outcome(clientID: String, actionID: String) async throws -> JournalOutcome? {
        try await read("read the outcome of (\(clientID), \(actionID))") { [scope] in
            try JournalStatements.outcome($0, scope: scope, clientID: clientID, actionID: actionID)
        }
    }

    /// The clientIds with outcomes, least recent first (see ``Journal/outcomeClients()``).
    public func outcomeClients() async throws -> [String] {
        try await read("list the clientIds with outcomes") { [scope] in try JournalStatements.outcomeClients($0, scope: scope) }
    }

    /// Every remembered pair (see ``Journal/outcomePairs()``): one scan of the outcomes table.
    public func outcomePairs() async throws -> OutcomePairFilter? {
        try await read("list the remembered (clientId, id) pairs") { [scope] in try JournalStatements.outcomePairs($0, scope: scope) }
    }
}
