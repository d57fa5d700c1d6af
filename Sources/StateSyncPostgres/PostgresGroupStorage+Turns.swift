import Logging
import PostgresNIO
import Synchronization

/// Taking turns: a writer whose compare-and-set fails keeps its transaction, locks
/// the store row (`SELECT … FOR UPDATE`, queued behind the winner) and writes the redone
/// group in it, so nodes write in PostgreSQL's lock order instead of the last winner
/// starving the others. The turn ends after ``heldTurnLimit``; the compare-and-set still guards every group.
extension PostgresGroupStorage {
    /// A transaction holding the store row's lock at `head`, on
    /// `connection`, of the writer slot `lease` (kept while the turn is held).
    struct HeldTurn {
        var lease: PostgresWriterPool.Lease
        var connection: TimedConnection
        var head: UInt64
        var deadline: ContinuousClock.Instant
    }

    /// Keeps the transaction on `connection` open, holding the store row at `head`, for
    /// the refused group's redo; returns the deadline at which the writer wakes to end it.
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
