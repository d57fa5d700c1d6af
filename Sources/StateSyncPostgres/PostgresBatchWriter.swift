import Foundation
import Logging
import PostgresNIO
import StateSyncServer
import Synchronization

/// The group-commit writer of a ``PostgresJournal``: one connection, one
/// task, and ``GroupCommitQueue`` (shared with ``SQLiteJournal``) deciding
/// what is written together.
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
/// ``SQLiteJournal``.
///
/// **Taking turns.** A refused writer keeps the store row locked while
/// its engine redoes the refused group (PostgresBatchWriter+Turns.swift).
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
/// **A lost connection** (the server restarted, the backend was terminated,
/// no answer within the deadline) is reconnected, with a backoff from
/// ``PostgresJournal/Configuration/firstRetryDelay`` doubling up to
/// ``PostgresJournal/Configuration/maximumRetryDelay``; meanwhile
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
final class PostgresBatchWriter: Sendable {
    let queue: Mutex<GroupCommitQueue>
    let connection: ReconnectingConnection
    private let storeID: String
    /// The node whose sessions' joins this writer journals, when presence
    /// is kept per node (``PresenceRows``).
    private let nodeID: String?
    let server: String
    private let backoff: RetryBackoff
    let logger: Logger
    private let writeFailed: @Sendable () -> Void
    private let wakeups: AsyncStream<Void>
    let wake: AsyncStream<Void>.Continuation
    /// The transaction kept open after a refusal (see "Taking turns"); only
    /// the writer task uses it.
    let heldTurn = Mutex<HeldTurn?>(nil)
    /// How long a held turn waits for the redo.
    let heldTurnLimit: Duration

    init(
        connection: ReconnectingConnection, storeID: String, nodeID: String?, server: String, headRevision: UInt64,
        heldTurnLimit: Duration, backoff: RetryBackoff, logger: Logger, writeFailed: @escaping @Sendable () -> Void
    ) {
        self.writeFailed = writeFailed
        self.heldTurnLimit = heldTurnLimit
        self.connection = connection
        self.storeID = storeID
        self.nodeID = nodeID
        self.server = server
        self.backoff = backoff
        self.logger = logger
        queue = Mutex(GroupCommitQueue(lastRevision: headRevision))
        (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues `work`; the writer task picks it up.
    func enqueue(_ work: GroupCommitQueue.Work) {
        switch queue.withLock({ $0.enqueue(work) }) {
        case .startDrain: wake.yield()
        case .none: break
        case .reject(let error): work.completion(.failure(error))
        }
    }

    /// The writer task's body: drains the queue each time it is woken, until
    /// ``finish()``.
    func run() async {
        for await _ in wakeups {
            await drain()
        }
    }

    /// Ends ``run()`` once the current drain is over (called by `close`).
    func finish() {
        wake.finish()
    }

    /// Closes the writer's connection (after ``run()`` ended).
    func closeConnection() async throws {
        try await connection.close()
    }

    private func drain() async {
        while true {
            switch queue.withLock({ $0.next() }) {
            case .write(let group):
                await commit(group)
            case .stop(let closeWaiters):
                // Woken at a held turn's deadline, or closing: the turn ends.
                await releaseTurn(evenBeforeItsDeadline: !closeWaiters.isEmpty)
                for waiter in closeWaiters { waiter(.success(())) }
                return
            }
        }
    }

    /// What a group's transaction came to, short of an error.
    private enum Outcome {
        /// `COMMIT` returned: the group is durable.
        case committed
        /// Another writer had moved the head to `head`; nothing was written.
        case refused(head: UInt64)
        /// Another writer had decided `pairs` of the group's `(clientId, id)`
        /// pairs; nothing was written (rolled back).
        case decidedElsewhere(pairs: Int)
    }

    /// Writes `group` in one transaction and runs its completions; writes it
    /// again on a new connection while the connection is lost before
    /// `COMMIT`.
    private func commit(_ group: [GroupCommitQueue.Work]) async {
        let batches = group.compactMap { work -> JournalBatch? in
            if case .batch(let batch, _) = work { return batch }
            return nil
        }
        let seen = queue.withLock { $0.durableRevision }
        let entries = batches.flatMap(\.entries)
        let head = entries.last?.revision ?? seen
        while true {
            do {
                let outcome = try await transaction(batches, entries: entries, from: seen, to: head)
                let failures = queue.withLock { queue -> Int? in
                    let failures = queue.fault?.failures
                    if case .committed = outcome { queue.committed(group) }
                    return failures
                }
                if let failures { logger.notice("PostgreSQL writes resumed", metadata: ["failures": "\(failures)"]) }
                switch outcome {
                case .committed:
                    logger.trace("PostgreSQL group committed", metadata: ["batches": "\(batches.count)", "revision": "\(head)"])
                    for work in group { work.completion(.success(())) }
                case .refused(let actual):
                    try refuse(group, seen: seen, actual: actual, first: entries[0].revision)
                case .decidedElsewhere(let pairs):
                    refuse(group, decidedElsewhere: pairs, seen: seen)
                }
                return
            } catch WriteFailure.lostBeforeCommit(let error) {
                writeFailed()
                guard await waitToRetry(after: error) else { return fail(group, with: error) }
            } catch WriteFailure.commitOutcomeUnknown(let error) {
                writeFailed()
                return await readHead(afterUnknown: group, error: error)
            } catch {
                writeFailed()
                return fail(group, with: PostgresFailure.journalError(error, server: server, operation: "write a batch"))
            }
        }
    }

    /// Why a group's transaction failed, when it is not the server refusing
    /// a statement (a ``JournalError``, final).
    private enum WriteFailure: Error {
        /// The connection was lost before `COMMIT` was sent: nothing of the
        /// transaction can be committed, so it may be written again.
        case lostBeforeCommit(JournalError)
        /// The connection was lost during `COMMIT`: the transaction may or
        /// may not be committed, so it is never written again.
        case commitOutcomeUnknown(JournalError)
    }

    /// Runs the group's transaction; throws ``WriteFailure`` when the
    /// connection was lost, a ``JournalError`` when the server refused a
    /// statement.
    private func transaction(
        _ batches: [JournalBatch], entries: [JournalEntry], from seen: UInt64, to head: UInt64
    ) async throws -> Outcome {
        let turn = await takeTurn(at: seen)
        let connection: TimedConnection
        do {
            if let turn {
                connection = turn
            } else {
                connection = try await self.connection.connection()
            }
        } catch {
            throw WriteFailure.lostBeforeCommit(PostgresFailure.journalError(error, server: server, operation: "connect"))
        }
        do {
            if turn == nil { try await connection.run("BEGIN", logger: logger) }
            if !entries.isEmpty {
                if let actual = try await compareAndSetHead(from: seen, to: head, on: connection) {
                    if actual > seen {
                        try await hold(connection, at: actual)
                    } else {
                        try await connection.run("ROLLBACK", logger: logger)
                    }
                    return .refused(head: actual)
                }
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
        } catch {
            let failure = PostgresFailure.journalError(error, server: server, operation: "write a batch")
            guard PostgresFailure.isServerAnswer(error) else {
                self.connection.drop(connection)
                throw WriteFailure.lostBeforeCommit(failure)
            }
            throw failure
        }
        do {
            try await connection.run("COMMIT", logger: logger)
        } catch {
            if PostgresFailure.isServerAnswer(error) {
                throw JournalError.postgres(server, "commit a batch", PostgresFailure.message(error))
            }
            self.connection.drop(connection)
            throw WriteFailure.commitOutcomeUnknown(.commitOutcomeUnknown(server, PostgresFailure.message(error)))
        }
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

    /// The store's head revision as the database has it now. With
    /// `waitingForWriters`, the read first waits for any transaction still
    /// holding the store's row (`FOR UPDATE`): after an unknown `COMMIT`,
    /// the old session may still be finishing it, and its outcome is what
    /// the head must reflect.
    private func storedHead(on connection: TimedConnection, waitingForWriters: Bool = false) async throws -> UInt64 {
        var actual: Int64 = 0
        let query: PostgresQuery = waitingForWriters
            ? "SELECT head_revision FROM statesync_stores WHERE store_id = \(storeID) FOR UPDATE"
            : "SELECT head_revision FROM statesync_stores WHERE store_id = \(storeID)"
        for found in try await connection.run(query, logger: logger).decode(Int64.self) { actual = found }
        return UInt64(actual)
    }

    /// Records a failed attempt (``PostgresJournal/writeFault``) and waits
    /// for the backoff; `false` when the journal is closing and the writer
    /// gives up instead.
    private func waitToRetry(after error: JournalError) async -> Bool {
        let failures: Int? = queue.withLock { queue in
            queue.isClosed ? nil : queue.retrying(reason: "PostgreSQL is unreachable")
        }
        guard let failures else { return false }
        let delay = backoff.delay(attempt: failures)
        logger.error("PostgreSQL connection lost; reconnecting", metadata: [
            "error": "\(error)", "failures": "\(failures)", "retryIn": "\(delay)"])
        do {
            try await Task.sleep(for: delay)
        } catch {
            return false
        }
        return true
    }

    /// `COMMIT` of `group` had an unknown outcome: the writer reconnects and
    /// re-reads the store's head, the queue continues from there, and then
    /// `group` and everything queued after it fail with that error (they are
    /// never written again; see the type's documentation). Their
    /// completions wait for the re-read, so an append made after they
    /// report is checked against the head as the database has it.
    private func readHead(afterUnknown group: [GroupCommitQueue.Work], error: JournalError) async {
        logger.error("PostgreSQL connection lost during COMMIT: outcome unknown", metadata: ["error": "\(error)"])
        while true {
            do {
                let open = try await connection.connection()
                let head: UInt64
                do {
                    head = try await storedHead(on: open, waitingForWriters: true)
                } catch {
                    connection.drop(open)
                    throw error
                }
                let rest = queue.withLock { $0.refused(head: head) }
                logger.notice("PostgreSQL writes resume from the store's head", metadata: ["head": "\(head)"])
                for work in group { work.completion(.failure(error)) }
                for work in rest { work.completion(.failure(.failed(after: error))) }
                return
            } catch let readError {
                writeFailed()
                let failure = PostgresFailure.journalError(readError, server: server, operation: "read the head")
                guard await waitToRetry(after: failure) else { return fail(group, with: error) }
            }
        }
    }


    /// A statement failed for good: this group and every later append fail
    /// with `error`.
    private func fail(_ group: [GroupCommitQueue.Work], with error: JournalError) {
        logger.error("PostgreSQL write failed; no further writes", metadata: ["error": "\(error)"])
        let rest = queue.withLock { $0.failed(error) }
        for work in group { work.completion(.failure(error)) }
        for work in rest { work.completion(.failure(.failed(after: error))) }
    }
}
