import Foundation
import Logging
import PostgresNIO
import StateSyncJournal
import Synchronization

/// The transaction of a ``PostgresJournal``'s group commit, for the shared
/// ``GroupCommitWriter``, on a writer connection leased from ``PostgresWriterPool``
/// for the transaction only.
///
/// **One total order.** Each group's transaction starts with a compare-and-set,
/// `UPDATE statesync_stores SET head_revision = <group's last> WHERE store_id = <store>
/// AND head_revision = <last seen>`, then inserts the journal rows. History cannot fork:
/// - The `UPDATE` locks the store row until the transaction ends; under READ COMMITTED
///   a concurrent `UPDATE` waits, re-checks its `WHERE`, and changes no row if the head
///   moved, so its group is refused (``JournalError/isRevisionGap``) and writes nothing.
/// - Entries run contiguously from the old head + 1 to the new head, and
///   `PRIMARY KEY (store_id, revision)` stores each revision once.
/// - A head *behind* what this writer saw committed means lost commits (a failover):
///   the group fails for good and ``PostgresHistoryLoss`` starts the store's new epoch.
/// - The `RETURNING` sends the group's `NOTIFY` (``PostgresHeadWatcher``), which
///   PostgreSQL delivers only at `COMMIT`.
///
/// **Exactly once across nodes.** Outcome rows go in with `ON CONFLICT DO NOTHING
/// RETURNING`: fewer rows back means another node stored a pair first, so the
/// transaction rolls back and fails with ``JournalError/isOutcomeConflict``. The
/// primary key makes an insert wait for a concurrent one's transaction to end.
///
/// **A lost connection** is reconnected with the journal's backoff while
/// ``PostgresJournal/writeFault`` says so. Lost before `COMMIT`: nothing committed,
/// and the group is written again (the compare-and-set still guards it). Lost during
/// `COMMIT`: the outcome is unknown (``JournalError/isCommitOutcomeUnknown``, never
/// acked), the group and everything after it fail, and the writer re-reads the head
/// before going on. Outcomes share the journal rows' transaction, so a retry finds
/// both or neither. Taking turns: PostgresGroupStorage+Turns.swift; bounded waits:
/// ``PostgresSessionBounds``.
final class PostgresGroupStorage: GroupCommitStorage {
    /// The node's writer connections, shared by its stores: each group
    /// leases one for its transaction (see ``PostgresWriterPool``).
    let writers: PostgresWriterPool
    private let storeID: String
    /// The store's epoch as this node serves it.
    private let epoch: String
    /// The node whose sessions' joins this writer journals, when presence
    /// is kept per node (``PresenceRows``).
    private let nodeID: String?
    /// Where a statement PostgreSQL refused is recorded for every store of the node.
    private let nodeFailure: PostgresNodeFailure
    /// Where a head behind the one this writer saw is recorded, and the store's new epoch started.
    private let historyLoss: PostgresHistoryLoss
    let server: String
    let logger: Logger
    /// The transaction kept open after a refusal (see "Taking turns"); only
    /// the writer task uses it.
    let heldTurn = Mutex<HeldTurn?>(nil)
    /// How long a held turn waits for the redo.
    let heldTurnLimit: Duration
    /// The numbers of the store's outcome retention (``PostgresOutcomeClients``).
    private let outcomeRetention: OutcomeRetention

    init(
        writers: PostgresWriterPool, storeID: String, epoch: String, nodeID: String?, nodeFailure: PostgresNodeFailure,
        historyLoss: PostgresHistoryLoss, server: String, heldTurnLimit: Duration, outcomeRetention: OutcomeRetention,
        logger: Logger
    ) {
        self.outcomeRetention = outcomeRetention
        self.epoch = epoch
        self.historyLoss = historyLoss
        self.nodeFailure = nodeFailure
        self.heldTurnLimit = heldTurnLimit
        self.writers = writers
        self.storeID = storeID
        self.nodeID = nodeID
        self.server = server
        self.logger = logger
    }

    /// The path-free reason of the final fault of a store whose history went back.
    private var historyLostReason: String {
        historyLoss.reason(of: storeID) ?? "store \(storeID) lost history in PostgreSQL"
    }

    /// The connection lost before `COMMIT`: nothing can be committed, so
    /// the writer writes the group again after its backoff.
    private static func lost(_ error: JournalError) -> GroupCommitFailure {
        .retryable(error, reason: "PostgreSQL is unreachable")
    }

    /// PostgreSQL refused a statement of the group (`error`, its `failure`):
    /// final for this journal, and recorded for the node's other stores.
    private func refused(_ error: any Error, _ failure: JournalError) -> GroupCommitFailure {
        let reason = "PostgreSQL refused a write to store \(storeID): \(PostgresFailure.message(error))"
        nodeFailure.record(JournalWriteFault(reason: reason, failures: 1, isFinal: true))
        return .final(failure, reason: reason)
    }

    /// Runs the group's transaction (see the type's documentation) on the
    /// held turn's connection, else on a writer connection leased for it.
    func commit(_ group: [GroupCommitQueue.Work], after seen: UInt64) async throws -> GroupCommitOutcome {
        if let lost = historyLoss.error(of: storeID) { throw GroupCommitFailure.final(lost, reason: historyLostReason) }
        let turn = await takeTurn(at: seen)
        let lease: PostgresWriterPool.Lease
        let connection: TimedConnection
        if let turn {
            (lease, connection) = (turn.lease, turn.connection)
        } else {
            lease = try await writers.lease()
            do {
                connection = try await lease.connection.connection()
            } catch {
                writers.giveBack(lease)
                throw Self.lost(PostgresFailure.journalError(error, server: server, operation: "connect"))
            }
        }
        do {
            let outcome = try await commit(group, after: seen, in: turn != nil, on: connection, of: lease)
            if case .refused(_, .some) = outcome { return outcome }   // the held turn keeps the lease
            writers.giveBack(lease)
            return outcome
        } catch {
            writers.giveBack(lease)
            throw error
        }
    }

    /// The group's transaction on `connection` (already in it when
    /// `inTurn`); a statement the server refused rolls it back, so that the
    /// connection goes back to the pool outside any transaction.
    private func commit(
        _ group: [GroupCommitQueue.Work], after seen: UInt64, in inTurn: Bool, on connection: TimedConnection,
        of lease: PostgresWriterPool.Lease
    ) async throws -> GroupCommitOutcome {
        let batches = group.batches
        let entries = batches.flatMap(\.entries)
        let head = entries.last?.revision ?? seen
        do {
            if !inTurn { try await connection.run("BEGIN", logger: logger) }
            // Every group checks the head, one that only rejects too: its
            // outcomes were decided on the state at `seen`.
            let actual = entries.isEmpty
                ? try await lockedHead(unlessAt: seen, on: connection)
                : try await compareAndSetHead(from: seen, to: head, on: connection)
            if let actual {
                guard actual > seen else {
                    try await connection.run("ROLLBACK", logger: logger)
                    await historyLoss.headWentBack(store: storeID, epoch: epoch, seen: seen, head: actual)
                    throw GroupCommitFailure.final(
                        historyLoss.error(of: storeID) ?? .historyLost(storeID, "its head went back"), reason: historyLostReason)
                }
                return .refused(head: actual, holdUntil: hold(connection, of: lease, at: actual))
            }
            if !entries.isEmpty {
                try await PostgresStatements.insert(entries, store: storeID, on: connection, logger: logger)
                if let nodeID {
                    try await PresenceRows.record(entries, store: storeID, node: nodeID, on: connection, logger: logger)
                }
            }
            var decidedElsewhere = 0
            for batch in batches {
                decidedElsewhere += try await PostgresStatements.record(batch, store: storeID, on: connection, logger: logger)
            }
            if decidedElsewhere > 0 {
                try await connection.run("ROLLBACK", logger: logger)
                return .decidedElsewhere(pairs: decidedElsewhere)
            }
            try await PostgresOutcomeClients.retain(batches, retention: outcomeRetention, store: storeID, on: connection, logger: logger)
        } catch let failure as GroupCommitFailure {
            throw failure
        } catch let error as JournalError {
            throw error
        } catch {
            let failure = PostgresFailure.journalError(error, server: server, operation: "write a batch")
            guard PostgresFailure.isServerAnswer(error) else {
                lease.connection.drop(connection)
                throw Self.lost(failure)
            }
            await rollBack(connection, of: lease)
            if PostgresFailure.isLockTimeout(error) {
                throw GroupCommitFailure.retryable(failure, reason: "another node holds the store's row too long")
            }
            throw refused(error, failure)
        }
        do {
            try await connection.run("COMMIT", logger: logger)
        } catch {
            if PostgresFailure.isServerAnswer(error) {
                throw refused(error, .postgres(server, "commit a batch", PostgresFailure.message(error)))
            }
            lease.connection.drop(connection)
            if error is TimedConnection.Closed {
                // COMMIT was never sent: the session ended without it, so nothing committed.
                throw Self.lost(PostgresFailure.journalError(error, server: server, operation: "commit a batch"))
            }
            throw GroupCommitFailure.outcomeUnknown(.commitOutcomeUnknown("PostgreSQL at \(server)", PostgresFailure.message(error)))
        }
        logger.trace("PostgreSQL group committed", metadata: ["batches": "\(batches.count)", "revision": "\(head)"])
        return .committed
    }

    /// The compare-and-set: `nil` when the head moved from `seen` to `head`,
    /// else the head another writer left.
    private func compareAndSetHead(from seen: UInt64, to head: UInt64, on connection: TimedConnection) async throws -> UInt64? {
        // The NOTIFY rides on the same statement and transaction: other nodes
        // hear of the group only if it commits (see PostgresHeadWatcher).
        let payload = PostgresHeadWatcher.payload(head: head, store: storeID)
        let updated = try await connection.run("""
            UPDATE statesync_stores SET head_revision = \(Int64(head))
             WHERE store_id = \(storeID) AND head_revision = \(Int64(seen))
            RETURNING head_revision, pg_notify(\(PostgresHeadWatcher.channel), \(payload))::text
            """, logger: logger)
        guard updated.isEmpty else { return nil }
        return try await storedHead(on: connection, waitingForWriters: true)
    }

    /// For a group with no entries: locks the store's row (until the
    /// transaction ends, so no other writer moves the head before this
    /// group commits) and returns its head when it is not `seen`, else `nil`.
    private func lockedHead(unlessAt seen: UInt64, on connection: TimedConnection) async throws -> UInt64? {
        let actual = try await storedHead(on: connection, waitingForWriters: true)
        return actual == seen ? nil : actual
    }

    /// The store's head after a `COMMIT` with an unknown outcome, on a new
    /// connection; the read first waits for any transaction still holding
    /// the store's row, since the old session may still be finishing it.
    func storedHead() async throws -> UInt64 {
        let lease = try await writers.lease()
        defer { writers.giveBack(lease) }
        do {
            let open = try await lease.connection.connection()
            do {
                // FOR UPDATE outside a transaction: the lock ends with the statement.
                return try await storedHead(on: open, waitingForWriters: true)
            } catch {
                lease.connection.drop(open)
                throw error
            }
        } catch {
            throw PostgresFailure.journalError(error, server: server, operation: "read the head")
        }
    }

    /// The store's head revision as the database has it now. With
    /// `waitingForWriters`, the read first waits for any transaction still
    /// holding the store's row (`FOR UPDATE`).
    private func storedHead(on connection: TimedConnection, waitingForWriters: Bool = false) async throws -> UInt64 {
        var actual: Int64 = 0
        let query: PostgresQuery = waitingForWriters
            ? "SELECT head_revision FROM statesync_stores WHERE store_id = \(storeID) FOR UPDATE"
            : "SELECT head_revision FROM statesync_stores WHERE store_id = \(storeID)"
        for found in try await connection.run(query, logger: logger).decode(Int64.self) { actual = found }
        return UInt64(actual)
    }

    /// Ends a held turn whose deadline passed, or any when closing.
    func idle(closing: Bool) async {
        await releaseTurn(evenBeforeItsDeadline: closing)
    }

    /// Ends a held turn: the writer connections belong to the node
    /// (``PostgresStores``), which closes them once every store closed.
    func release() async -> Result<Void, JournalError> {
        await releaseTurn(evenBeforeItsDeadline: true)
        return .success(())
    }
}
