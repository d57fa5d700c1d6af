import GRDB
import Synchronization

/// The catalog row of a store its open created, not yet in the file: written in the store's
/// first commit's savepoint (so no entry exists without it), or alone when the journal closes
/// without writing. Opening a new store thus waits for no write.
final class PendingStoreRow: Sendable {
    let name: String
    let id: Int64
    let epoch: String
    private let written = Atomic(false)

    /// The row of the store `name`, with id `id` and epoch `epoch`.
    init(name: String, id: Int64, epoch: String) {
        self.name = name
        self.id = id
        self.epoch = epoch
    }

    /// Whether no commit has written the row yet.
    var isPending: Bool { !written.load(ordering: .acquiring) }

    /// Inserts the row (inside the caller's transaction).
    func insert(into db: Database) throws {
        try StoresSchema.create(name, id: id, epoch: epoch, in: db)
    }

    /// A commit that held ``insert(into:)`` is durable (or written, for
    /// the unsynced one at close): later commits leave the row out.
    func markWritten() {
        written.store(true, ordering: .releasing)
    }
}
