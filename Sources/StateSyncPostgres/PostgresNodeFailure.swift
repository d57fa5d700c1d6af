import StateSyncJournal
import Synchronization

/// The first write PostgreSQL refused on any store of a node (a read-only
/// database, a full disk, a canceled statement): that store's journal
/// failed for good, and since the node's stores share one database, every
/// store's journal reports it (``PostgresJournal/writeFault``), so that
/// `/health` answers 503 whichever store's write was refused.
final class PostgresNodeFailure: Sendable {
    private let first = Mutex<JournalWriteFault?>(nil)

    /// The refusal recorded first, or `nil`.
    var fault: JournalWriteFault? { first.withLock { $0 } }

    /// Records `fault` unless one was recorded before.
    func record(_ fault: JournalWriteFault) {
        first.withLock { $0 = $0 ?? fault }
    }
}
