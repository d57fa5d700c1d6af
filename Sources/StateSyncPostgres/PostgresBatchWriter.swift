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
///
/// **Ack means committed.** A completion reports success only after
/// `COMMIT` returned. When the connection fails during `COMMIT`, whether the
/// transaction committed is unknown: the completion reports
/// ``JournalError/isCommitOutcomeUnknown`` (never success), so nothing is
/// acknowledged; a client that retries the same `(clientId, id)` finds the
/// outcome in `statesync_outcomes` if it did commit. Any other failure of a
/// statement is final for this journal (its transaction is rolled back by
/// PostgreSQL when the connection ends): every later append fails, as with
/// ``SQLiteJournal``; reconnecting is not implemented yet.
final class PostgresBatchWriter: Sendable {
    let queue: Mutex<GroupCommitQueue>
    private let connection: TimedConnection
    private let storeID: String
    private let server: String
    private let logger: Logger
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    init(connection: TimedConnection, storeID: String, server: String, headRevision: UInt64, logger: Logger) {
        self.connection = connection
        self.storeID = storeID
        self.server = server
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
    }

    /// Writes `group` in one transaction and runs its completions.
    private func commit(_ group: [GroupCommitQueue.Work]) async {
        let batches = group.compactMap { work -> JournalBatch? in
            if case .batch(let batch, _) = work { return batch }
            return nil
        }
        let seen = queue.withLock { $0.durableRevision }
        let entries = batches.flatMap(\.entries)
        let head = entries.last?.revision ?? seen
        do throws(JournalError) {
            switch try await transaction(batches, entries: entries, from: seen, to: head) {
            case .committed:
                queue.withLock { $0.committed(group) }
                logger.trace("PostgreSQL group committed", metadata: ["batches": "\(batches.count)", "revision": "\(head)"])
                for work in group { work.completion(.success(())) }
            case .refused(let actual):
                try refuse(group, seen: seen, actual: actual, first: entries[0].revision)
            }
        } catch {
            fail(group, with: error)
        }
    }

    /// Runs the group's transaction; throws when a statement or the
    /// connection failed.
    private func transaction(
        _ batches: [JournalBatch], entries: [JournalEntry], from seen: UInt64, to head: UInt64
    ) async throws(JournalError) -> Outcome {
        do {
            try await connection.run("BEGIN", logger: logger)
            if !entries.isEmpty {
                if let actual = try await compareAndSetHead(from: seen, to: head) {
                    try await connection.run("ROLLBACK", logger: logger)
                    return .refused(head: actual)
                }
                try await PostgresStatements.insert(entries, store: storeID, on: connection, logger: logger)
            }
            for batch in batches {
                try await PostgresStatements.record(batch, store: storeID, on: connection, logger: logger)
            }
        } catch {
            throw PostgresFailure.journalError(error, server: server, operation: "write a batch")
        }
        do {
            try await connection.run("COMMIT", logger: logger)
        } catch {
            if PostgresFailure.isServerAnswer(error) {
                throw .postgres(server, "commit a batch", PostgresFailure.message(error))
            }
            throw .commitOutcomeUnknown(server, PostgresFailure.message(error))
        }
        return .committed
    }

    /// The compare-and-set: `nil` when the head moved from `seen` to `head`,
    /// else the head another writer left.
    private func compareAndSetHead(from seen: UInt64, to head: UInt64) async throws -> UInt64? {
        let updated = try await connection.run("""
            UPDATE statesync_stores SET head_revision = \(Int64(head))
             WHERE store_id = \(storeID) AND head_revision = \(Int64(seen)) RETURNING head_revision
            """, logger: logger)
        guard updated.isEmpty else { return nil }
        var actual: Int64 = 0
        for found in try await connection.run(
            "SELECT head_revision FROM statesync_stores WHERE store_id = \(storeID)", logger: logger
        ).decode(Int64.self) { actual = found }
        return UInt64(actual)
    }

    /// The head is at `actual`, not at the revision `seen` this writer last
    /// committed or read: `group` and everything pending fail with a revision
    /// gap, in order, and the queue continues from `actual`. A head *behind*
    /// `seen` means the database lost committed transactions: that is thrown,
    /// final.
    private func refuse(_ group: [GroupCommitQueue.Work], seen: UInt64, actual: UInt64, first: UInt64) throws(JournalError) {
        guard actual > seen else {
            throw .postgres(server, "write a batch", "the store's head revision \(actual) is behind the revision "
                + "\(seen) this node saw committed: the database lost committed transactions")
        }
        logger.notice("another writer moved the store's head: this node must catch up", metadata: [
            "seen": "\(seen)", "head": "\(actual)"])
        let gap = JournalError.revisionGap(expected: actual + 1, got: first)
        let rest = queue.withLock { $0.refused(head: actual) }
        for work in group + rest { work.completion(.failure(gap)) }
    }

    /// A statement or the connection failed: this group and every later
    /// append fail with `error`.
    private func fail(_ group: [GroupCommitQueue.Work], with error: JournalError) {
        logger.error("PostgreSQL write failed; no further writes", metadata: ["error": "\(error)"])
        let rest = queue.withLock { $0.failed(error) }
        for work in group { work.completion(.failure(error)) }
        for work in rest { work.completion(.failure(.failed(after: error))) }
    }
}
