import Logging
import PostgresNIO
import StateSyncJournal
import Synchronization

/// The stores of a node whose history in PostgreSQL is no longer the one it serves
/// (a failover to a replica that was behind lowered the head, or the epoch changed):
/// serving them on would silently fork what clients saw. The node that finds the head
/// behind sets a new epoch in the store's row (once), so later openers serve what is
/// left; this node's journal fails with ``JournalError/isHistoryLost`` until a restart,
/// and a head gone back also fails the node (``PostgresNodeFailure``).
final class PostgresHistoryLoss: Sendable {
    /// What is known of one store's loss.
    private struct Loss {
        /// What its journal's reads and writes throw.
        let error: JournalError
        /// Why, without the server's address (for `/health`).
        let reason: String
    }

    private let lost = Mutex<[String: Loss]>([:])
    private let nodeFailure: PostgresNodeFailure
    private let reader: ReconnectingConnection
    private let server: String
    private let logger: Logger

    init(nodeFailure: PostgresNodeFailure, reader: ReconnectingConnection, server: String, logger: Logger) {
        self.nodeFailure = nodeFailure
        self.reader = reader
        self.server = server
        self.logger = logger
    }

    /// Why `storeID` may not be read or written any more, or `nil`.
    func error(of storeID: String) -> JournalError? {
        lost.withLock { $0[storeID]?.error }
    }

    /// Why `storeID` may not be written any more, without the server's
    /// address (a ``JournalWriteFault/reason``), or `nil`.
    func reason(of storeID: String) -> String? {
        lost.withLock { $0[storeID]?.reason }
    }

    /// The head of `storeID` is `head` in the database, behind the revision
    /// `seen` this node saw committed: records the loss and starts a new
    /// epoch in place of `epoch`, unless another node did.
    func headWentBack(store storeID: String, epoch: String, seen: UInt64, head: UInt64) async {
        let damage = "its head revision in PostgreSQL is \(head), behind revision \(seen) this node saw committed "
            + "(did the database fail over to a replica that was behind?)"
        guard record(storeID, damage: damage, seen: seen, head: head, failingTheNode: true) else { return }
        let newEpoch = Epoch.random()
        do {
            let updated = try await reader.run("""
                UPDATE statesync_stores SET epoch = \(newEpoch) WHERE store_id = \(storeID) AND epoch = \(epoch) RETURNING epoch
                """, logger: logger)
            if updated.isEmpty {
                logger.critical("another node already started a new epoch for the store", metadata: ["store": "\(storeID)"])
            } else {
                logger.critical("the store starts a new epoch with what is left of its history", metadata: [
                    "store": "\(storeID)", "epoch": "\(newEpoch)", "previousEpoch": "\(epoch)", "rev": "\(head)"])
            }
        } catch {
            logger.error("starting a new epoch for the store failed; the next node that finds its head behind tries again", metadata: [
                "store": "\(storeID)", "error": "\(PostgresFailure.message(error))"])
        }
    }

    /// The store `storeID` has the epoch `found` in the database, not the `epoch` this
    /// node serves (a new epoch, or deleted and created again): records the loss.
    func epochChanged(store storeID: String, epoch: String, found: String, head: UInt64) {
        _ = record(storeID, damage: "its epoch in PostgreSQL is \(found), not the epoch \(epoch) this node serves "
            + "(its history went back, or it was deleted and created again)", seen: nil, head: head, failingTheNode: false)
    }

    /// Records the loss of `storeID` once, and the node's failure when
    /// `failingTheNode`: `false` when it was known already.
    private func record(_ storeID: String, damage: String, seen: UInt64?, head: UInt64, failingTheNode: Bool) -> Bool {
        let loss = Loss(
            error: .historyLost("store \(storeID) at PostgreSQL \(server)", damage),
            reason: "store \(storeID) lost history in PostgreSQL: \(damage); this node serves it no more until it restarts")
        guard lost.withLock({ lost in
            guard lost[storeID] == nil else { return false }
            lost[storeID] = loss
            return true
        }) else { return false }
        if failingTheNode { nodeFailure.record(JournalWriteFault(reason: loss.reason, failures: 1, isFinal: true)) }
        var metadata: Logger.Metadata = ["store": "\(storeID)", "head": "\(head)", "reason": "\(damage)"]
        if let seen { metadata["seen"] = "\(seen)" }
        logger.critical("a store lost history in PostgreSQL; this node serves and writes it no more until it restarts",
                        metadata: metadata)
        return true
    }
}
