import StateSyncJournal
import Synchronization

/// The first write PostgreSQL refused on any store of a node: the stores share one
/// database, so every store's journal reports it and `/health` answers 503.
final class PostgresNodeFailure: Sendable {
    private let first = Mutex<JournalWriteFault?>(nil)

    /// The refusal recorded first, or `nil`.
    var fault: JournalWriteFault? { first.withLock { $0 } }

    /// Records `fault` unless one was recorded before.
    func record(_ fault: JournalWriteFault) {
        first.withLock { $0 = $0 ?? fault }
    }
}
