import Foundation
import Logging
import PostgresNIO
import StateSyncJournal
import Synchronization

/// The transaction of a ``PostgresJournal``'s group commit, for the shared
/// ``GroupCommitWriter`` (which also writes SQLite's): what one group's
/// transaction does and how it can fail, on a writer connection the node's
/// stores share (``PostgresWriterPool``), leased for the transaction only.
///
/// Batches appended while a group is being committed wait and are
/// committed together in the next transaction, so one round trip to
/// PostgreSQL's WAL flush covers everything that arrived meanwhile.
///
/// **One total order.** Each group is one transaction that starts with a
/// compare-and-set on the store's head revision:
///
/// ```sql
/// UPDATE statesync_stores SET head_revision = <last revision of the group>
///  WHERE store_id = <store> AND head_revision = <revision this writer last saw>
/// ```
///
/// and then inserts the group's journal rows. Why no two writers can fork
/// history, whatever their timing (a node paused for seconds included):
/// - The `UPDATE` takes the store row's lock until the transaction ends.
///   A concurrent writer's `UPDATE` of the same row waits for that lock and,
///   under READ COMMITTED, then re-checks its `WHERE` against the row as
///   the first transaction left it (PostgreSQL's re-evaluation of updated
///   rows). If the first committed, the head moved, the condition is false,
///   zero rows change, and the second writer's group is refused and writes
///   nothing (``JournalError/isRevisionGap``); if the first rolled back, the
///   second proceeds from the unchanged head. So exactly one transaction
///   moves the head from a given value, and it is the one whose journal rows
///   start right after that value.
/// - The group's entries are contiguous (``GroupCommitQueue`` checks it when
///   they are enqueued), start at the old head + 1 and end at the new head,
///   so committed revisions are contiguous across all writers.
/// - `PRIMARY KEY (store_id, revision)` is a second, independent guard: a
///   revision can be stored once, whatever a buggy writer might try.
/// - A head found *behind* the revision this writer saw committed means the
///   database lost commits (a failover to a replica that was behind): the
///   group is rolled back and fails for good, and ``PostgresHistoryLoss``
///   starts the store's new epoch and stops it on this node.
/// - A refused writer learns the head from the same transaction; its
///   ``PostgresJournal/lastRevision`` moves there, and it must read the
///   entries it missed (``PostgresJournal/entries(from:through:)``) and
///   replay them before it sequences again.
/// - The compare-and-set's `RETURNING` sends the group's one `NOTIFY`
///   (``PostgresHeadWatcher``): PostgreSQL delivers it at `COMMIT` and
///   drops it on rollback, so a notification announces only a committed head.
///
/// **Ack means committed.** A completion reports success only after
/// `COMMIT` returned. When the connection fails during `COMMIT`, whether the
/// transaction committed is unknown: the completion reports
/// ``JournalError/isCommitOutcomeUnknown`` (never success), so nothing is
/// acknowledged; a client that retries the same `(clientId, id)` finds the
/// outcome in `statesync_outcomes` if it did commit. A statement the server
/// refuses is final for this journal: every later append fails, as with
/// ``SQLiteJournal``, and the node's ``PostgresNodeFailure`` records it.
///
/// **Taking turns.** A refused writer keeps the store row locked while
/// its engine redoes the refused group (PostgresGroupStorage+Turns.swift).
///
/// **Exactly once across nodes.** A node does not ask PostgreSQL whether
/// each new `(clientId, id)` pair was decided elsewhere before applying it
/// (one read per action); the group's transaction checks instead. Its
/// outcome rows go in with `ON CONFLICT DO NOTHING RETURNING`, and when
/// fewer rows come back than were sent, another node had already stored
/// an outcome for a pair (the client sent it to two nodes, say after a
/// failover): the transaction rolls back, writes nothing, and the group
/// fails with ``JournalError/isOutcomeConflict``; the engine then looks
/// the pairs up and answers those from their stored outcome. The check
/// cannot miss a pair decided concurrently: under `PRIMARY KEY (store_id,
/// client_id, action_id)` an insert of a pair that another transaction has
/// inserted and not yet ended waits for it, then conflicts if it committed
/// and goes in if it rolled back, so one outcome of a pair is ever stored.
///
/// **Bounded waits.** Every session starts with ``PostgresSessionBounds``:
/// a node stopped inside a group's transaction (SIGSTOP, a long pause) has
/// its session ended by PostgreSQL after the idle timeout, which frees the
/// store's row for the other nodes; resumed, it finds its connection lost
/// (below). A statement that waits for the row past the lock timeout fails,
/// and the group is written again after the backoff, like a lost connection.
///
/// **A lost connection** (the server restarted, the backend was terminated
/// or ended for idling in a transaction, no answer within the deadline) is reconnected, with a backoff from
/// ``PostgresJournal/Configuration/firstRetryDelay`` doubling up to
/// ``PostgresJournal/Configuration/maximumRetryDelay`` (the writer's
/// retry of a ``GroupCommitFailure/retryable(_:reason:)``); meanwhile
/// ``PostgresJournal/writeFault`` says so (`/health` answers 503, the engine
/// refuses new actions with `unavailable`). Why this never applies a batch
/// twice nor leaves a hole in the revisions:
/// - Lost *before* `COMMIT` was sent: the transaction cannot have committed
///   (PostgreSQL rolls back a transaction whose session ends without
///   `COMMIT`), so the same group is written again on the new connection.
///   Its compare-and-set still checks the head in the database: if another
///   node wrote meanwhile, the group is refused as above, never forked.
/// - Lost *during* `COMMIT`: the outcome is unknown, so the group is never
///   written again by this writer; its completion and those of everything
///   queued after it (built on revisions that may not exist) fail. The
///   writer then re-reads the store's head revision on the new connection
///   before any further compare-and-set, and continues from there: from the
///   group's last revision if it landed, from the old head if it did not,
///   or from another node's later head. Without that re-read the next
///   compare-and-set would start from a revision this node only assumed.
///   The group's outcomes (`statesync_outcomes`) were in the same
///   transaction as its journal rows, so a client's retry of one of its
///   `(clientId, id)` finds either both (and is answered with the original
///   revision) or neither (and is applied once).
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
