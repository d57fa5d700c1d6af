import NIOCore
import PostgresNIO
public import StateSyncJournal
import StateSyncCore

extension PostgresJournal {
    /// Stores `snapshot` (at most ``lastRevision``), then applies the retention. The
    /// statements run in an order a crash leaves harmless (the snapshot first), so they
    /// need no transaction.
    public func saveSnapshot(_ snapshot: JournalSnapshot) async throws {
        try checkOpen()
        guard snapshot.revision <= lastRevision else {
            throw JournalError.snapshotAhead(snapshot.revision, lastRevision: lastRevision)
        }
        let store = configuration.storeID
        try await run("store a snapshot") { [reader, logger] in
            try await reader.run("""
                INSERT INTO statesync_snapshots (store_id, revision, state, schema_version)
                VALUES (\(store), \(Int64(snapshot.revision)), \(ByteBuffer(bytes: snapshot.state)), \(snapshot.schemaVersion))
                ON CONFLICT (store_id, revision) DO UPDATE SET state = EXCLUDED.state, schema_version = EXCLUDED.schema_version
                """, logger: logger)
        }
        try await applyRetention()
    }

    /// The most recent snapshot (see ``Journal/latestSnapshot()``).
    public func latestSnapshot() async throws -> JournalSnapshot? {
        try await snapshot(atOrBefore: UInt64(Int64.max))
    }

    /// The nearest snapshot at or before `revision` (see ``Journal/snapshot(atOrBefore:)``).
    public func snapshot(atOrBefore revision: UInt64) async throws -> JournalSnapshot? {
        let store = configuration.storeID
        return try await run("read a snapshot") { [reader, logger] in
            var found: JournalSnapshot?
            for (revision, state, version) in try await reader.run("""
                SELECT revision, state, schema_version FROM statesync_snapshots
                 WHERE store_id = \(store) AND revision <= \(Int64(clamping: revision)) ORDER BY revision DESC LIMIT 1
                """, logger: logger).decode((Int64, ByteBuffer, Int32).self) {
                found = JournalSnapshot(revision: UInt64(revision), state: Array(buffer: state), schemaVersion: Int(version))
            }
            return found
        }
    }

    /// The revisions of the kept snapshots, ascending (see ``Journal/snapshotRevisions()``).
    public func snapshotRevisions() async throws -> [UInt64] {
        let store = configuration.storeID
        return try await run("read the snapshots' revisions") { [reader, logger] in
            var revisions: [UInt64] = []
            for revision in try await reader.run(
                "SELECT revision FROM statesync_snapshots WHERE store_id = \(store) ORDER BY revision", logger: logger
            ).decode(Int64.self) { revisions.append(UInt64(revision)) }
            return revisions
        }
    }

    /// The oldest kept entry's revision (see ``Journal/oldestRevision()``).
    public func oldestRevision() async throws -> UInt64? {
        let store = configuration.storeID
        return try await run("read the oldest revision") { [reader, logger] in
            var oldest: Int64?
            for revision in try await reader.run(
                "SELECT min(revision) FROM statesync_journal WHERE store_id = \(store)", logger: logger
            ).decode(Int64?.self) { oldest = revision }
            return oldest.map { UInt64($0) }
        }
    }

    /// The committed entries `from...through`, in order, including other nodes' past
    /// ``lastRevision`` (how a refused writer catches up); retention may drop some.
    public func entries(from: UInt64, through: UInt64) async throws -> [JournalEntry] {
        let lower = Int64(clamping: from)
        let upper = Int64(clamping: through)
        guard lower <= upper else { return [] }
        let store = configuration.storeID
        return try await run("read journal entries") { [reader, logger] in
            var entries: [JournalEntry] = []
            for (revision, bits, client, action, bytes, version) in try await reader.run("""
                SELECT revision, time_bits, client_id, action_id, action, schema_version FROM statesync_journal
                 WHERE store_id = \(store) AND revision BETWEEN \(lower) AND \(upper) ORDER BY revision
                """, logger: logger).decode((Int64, Int64, String?, String?, ByteBuffer, Int32).self) {
                let meta = Meta(revision: UInt64(revision), clientID: client, time: StoredTime.date(fromBits: bits))
                entries.append(JournalEntry(meta: meta, actionID: action, action: Array(buffer: bytes), schemaVersion: Int(version)))
            }
            return entries
        }
    }

    /// The remembered outcome of a pair, whichever node recorded it (see
    /// ``Journal/outcome(clientID:actionID:)``).
    public func outcome(clientID: String, actionID: String) async throws -> JournalOutcome? {
        let store = configuration.storeID
        return try await run("read an outcome") { [reader, logger] in
            var outcome: JournalOutcome?
            for (revision, code, message) in try await reader.run("""
                SELECT revision, code, message FROM statesync_outcomes
                 WHERE store_id = \(store) AND client_id = \(clientID) AND action_id = \(actionID)
                """, logger: logger).decode((Int64?, String?, String?).self) {
                outcome = revision.map { .accepted(revision: UInt64($0)) }
                    ?? .rejected(code: code ?? "", message: message ?? "")
            }
            return outcome
        }
    }

    /// The clientIds with outcomes, least recently recorded first (see ``Journal/outcomeClients()``).
    public func outcomeClients() async throws -> [String] {
        let store = configuration.storeID
        return try await run("read the outcomes' clientIds") { [reader, logger] in
            var clients: [String] = []
            for client in try await reader.run("""
                SELECT client_id FROM statesync_outcomes WHERE store_id = \(store) GROUP BY client_id ORDER BY max(seq)
                """, logger: logger).decode(String.self) { clients.append(client) }
            return clients
        }
    }

    /// After a snapshot, as ``SQLiteJournal`` does (see ``RetentionPlan``):
    /// drops the entries beyond the window behind the newest snapshot, by
    /// revisions and by bytes, and thins the snapshots before the kept entries.
    private func applyRetention() async throws {
        let snapshots = try await snapshotRevisions()
        guard let newest = snapshots.last else { return }
        let retention = configuration.retention
        let store = configuration.storeID
        let byRevisions = RetentionPlan.cutoff(newest: newest, revisions: retention.revisions)
        try await run("apply the journal's retention") { [reader, logger] in
            // The newest revision whose entry, with those after it up to the
            // snapshot, holds more than the byte budget (0: all fit).
            var byBytes: Int64 = 0
            for revision in try await reader.run("""
                SELECT revision FROM (
                    SELECT revision, sum(length(action)) OVER (ORDER BY revision DESC) AS total FROM statesync_journal
                     WHERE store_id = \(store) AND revision > \(Int64(clamping: byRevisions)) AND revision <= \(Int64(clamping: newest))
                ) AS window_totals WHERE total > \(Int64(retention.bytes)) ORDER BY revision DESC LIMIT 1
                """, logger: logger).decode(Int64.self) { byBytes = revision }
            let keepFrom = RetentionPlan.keepFrom(snapshots: snapshots, cutoff: max(byRevisions, UInt64(byBytes)))
            try await reader.run(
                "DELETE FROM statesync_journal WHERE store_id = \(store) AND revision < \(Int64(clamping: keepFrom))",
                logger: logger)
            let kept = Set(RetentionPlan.thinned(snapshots, below: keepFrom, keeping: retention.olderSnapshots))
            let dropped = snapshots.filter { !kept.contains($0) }.map { Int64($0) }
            if !dropped.isEmpty {
                try await reader.run(
                    "DELETE FROM statesync_snapshots WHERE store_id = \(store) AND revision = ANY(\(dropped))", logger: logger)
            }
        }
    }

    /// Runs `body` on the reader connection, mapping errors to ``JournalError``.
    @discardableResult
    private func run<T: Sendable>(_ operation: String, _ body: @Sendable () async throws -> T) async throws -> T {
        try checkOpen()
        do {
            return try await body()
        } catch {
            throw PostgresFailure.journalError(error, server: location.description, operation: operation)
        }
    }

    /// Throws when the journal is closed, or its store lost history this
    /// node saw committed (nothing of it may be served on top of what was).
    private func checkOpen() throws {
        if writerIsClosed { throw JournalError.closed }
        if let historyLost { throw historyLost }
    }
}
