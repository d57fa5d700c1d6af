import StateSyncJournal
import Synchronization

/// What ``SyncEngine``'s callers read while the sequencer runs: the latest
/// durable revision and the recent rejections, each behind its own atomic
/// or lock.
final class EngineShared: Sendable {
    /// The journal's epoch.
    let epoch: String
    /// The latest durable revision handed to the fan-out shards (stored
    /// before they send its patches).
    let publishedRevision: Atomic<UInt64>
    /// The recent rejections, for devtools.
    let rejections: Mutex<RejectionLog>
    /// Live sessions of this engine that another node's `sessionLeft`
    /// removed, counted as the sequencer follows them.
    let liveSessionsRemovedElsewhere = Atomic(0)
    /// Sessions joined now (WebSocket sessions and HTTP requests), kept by the sequencer.
    let sessionCount = Atomic(0)
    /// About how many bytes the state takes encoded as JSON, kept by the sequencer.
    let stateBytes = Atomic(0)
    /// Which node writes the store, as its shared journal last said
    /// (``SharedJournal/watchWriter(_:)``); `nil` while it said nothing (no
    /// cluster, or a journal that keeps no leases).
    let writer = Mutex<StoreWriter?>(nil)
    /// Why the engine accepts no more actions (its journal failed for good,
    /// or it cannot follow a shared store), or `nil` while it does.
    private let failure = Mutex<String?>(nil)
    /// The app schema version another node wrote the store at, newer than
    /// this node's (0 while none was seen): the engine no longer serves it.
    let newerStoredSchema = Atomic(0)

    /// The reason the engine stopped accepting actions, if it did.
    var stopReason: String? { failure.withLock { $0 } }

    /// Records that the engine accepts no more actions; the first reason stays.
    func stoppedAccepting(because reason: String) {
        failure.withLock { $0 = $0 ?? reason }
    }

    init(epoch: String, revision: UInt64, rejectionLogCapacity: Int) {
        self.epoch = epoch
        self.publishedRevision = Atomic(revision)
        self.rejections = Mutex(RejectionLog(capacity: rejectionLogCapacity))
    }
}
