import Logging
import PostgresNIO
import Synchronization

/// Taking turns. A writer whose compare-and-set fails does not roll back
/// at once: it locks the store row (`SELECT … FOR UPDATE`, which queues it
/// behind the writer that moved the head), reads the head, and keeps that
/// transaction open while its engine catches up and sequences the refused
/// actions again; their group is then written in the same transaction,
/// whose compare-and-set cannot fail since nobody else could move the head.
/// So with every node writing, the nodes take turns in the order
/// PostgreSQL queues their locks, instead of the last winner winning again
/// while the others are still catching up (which starved them).
///
/// The turn is bounded: a group that does not come within
/// ``heldTurnLimit`` (or does not start right after the locked head) rolls
/// the transaction back, and the session's
/// `idle_in_transaction_session_timeout` (``PostgresSessionBounds``) ends
/// it should this process stop (SIGSTOP) while holding it. Correctness does not rest on the turn:
/// every group still goes through the compare-and-set.
extension PostgresGroupStorage {
    /// A transaction holding the store row's lock at `head`, on
    /// `connection`, of the writer slot `lease` (kept while the turn is held).
    struct HeldTurn {
        var lease: PostgresWriterPool.Lease
        var connection: TimedConnection
        var head: UInt64
        var deadline: ContinuousClock.Instant
    }

    /// Keeps the transaction open on `connection`, holding the store row at
    /// `head`, for the refused group's redo (see "Taking turns"); returns
    /// the turn's deadline, at which the writer wakes to end it if nothing
    /// came. The turn keeps `lease` until it ends.
    func hold(_ connection: TimedConnection, of lease: PostgresWriterPool.Lease, at head: UInt64) -> ContinuousClock.Instant {
        let deadline = ContinuousClock.now + heldTurnLimit
        heldTurn.withLock { $0 = HeldTurn(lease: lease, connection: connection, head: head, deadline: deadline) }
        return deadline
    }

    /// The held turn, already in its transaction, when a group starting at
    /// `seen` may use it; else the turn is ended (rolled back) and `nil`
    /// returned.
    func takeTurn(at seen: UInt64) async -> HeldTurn? {
        guard let turn = heldTurn.withLock({ turn in defer { turn = nil }; return turn }) else { return nil }
        if turn.head == seen, ContinuousClock.now < turn.deadline, !turn.connection.connection.isClosed { return turn }
        await rollBack(turn.connection, of: turn.lease)
        writers.giveBack(turn.lease)
        return nil
    }

    /// Ends the held turn, if any, once its deadline has passed (or at once).
    func releaseTurn(evenBeforeItsDeadline: Bool) async {
        guard let turn = heldTurn.withLock({ turn -> HeldTurn? in
            guard let held = turn, evenBeforeItsDeadline || ContinuousClock.now >= held.deadline else { return nil }
            turn = nil
            return held
        }) else { return }
        logger.debug("the refused batch did not come back in time: the held turn ends", metadata: ["head": "\(turn.head)"])
        await rollBack(turn.connection, of: turn.lease)
        writers.giveBack(turn.lease)
    }

    /// Rolls back the transaction on `connection`, of the slot `lease`; a
    /// connection that fails to is dropped (its session's end rolls it back).
    func rollBack(_ connection: TimedConnection, of lease: PostgresWriterPool.Lease) async {
        do {
            try await connection.run("ROLLBACK", logger: logger)
        } catch {
            lease.connection.drop(connection)
        }
    }
}
