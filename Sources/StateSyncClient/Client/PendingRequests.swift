import StateSyncCore

/// Everything a ``StateSyncClient`` caller is waiting for in one store:
/// unacknowledged dispatches (kept, in order, to be re-sent after a
/// reconnect), one-shot reads, and subscriptions awaiting their first snapshot.
struct PendingRequests {
    /// A dispatch sent (or to be sent) and not yet answered.
    struct Dispatch {
        let id: String
        let action: JSONObject
        /// Order of dispatch, so re-sending keeps the original order.
        let sequence: Int
        /// The app schema version the action was written for (an outbox
        /// entry's), when declared.
        let schemaVersion: Int?
        /// The caller waiting for the answer; `nil` for a dispatch restored
        /// from the outbox (nobody in this process waits for it).
        let continuation: CheckedContinuation<UInt64, any Error>?
    }

    /// A one-shot `get` not yet answered.
    struct Read {
        let id: String
        let path: JSONPointer
        let continuation: CheckedContinuation<(rev: UInt64, value: JSONValue), any Error>
    }

    private(set) var dispatches: [String: Dispatch] = [:]
    private(set) var reads: [String: Read] = [:]
    private var nextSequence = 0
    /// Callers of `subscribe`/`observe` waiting for a path's first snapshot.
    var syncWaiters: [JSONPointer: [CheckedContinuation<Void, any Error>]] = [:]

    /// Remembers a dispatch until its answer.
    mutating func add(
        dispatch id: String, action: JSONObject, schemaVersion: Int?, continuation: CheckedContinuation<UInt64, any Error>?
    ) {
        nextSequence += 1
        dispatches[id] = Dispatch(id: id, action: action, sequence: nextSequence, schemaVersion: schemaVersion, continuation: continuation)
    }

    /// Remembers a read until its answer.
    mutating func add(read id: String, path: JSONPointer, continuation: CheckedContinuation<(rev: UInt64, value: JSONValue), any Error>) {
        reads[id] = Read(id: id, path: path, continuation: continuation)
    }

    /// The unanswered dispatches in the order they were made.
    var dispatchesInOrder: [Dispatch] {
        dispatches.values.sorted { $0.sequence < $1.sequence }
    }

    /// Removes and returns dispatch `id`.
    mutating func takeDispatch(_ id: String) -> Dispatch? {
        dispatches.removeValue(forKey: id)
    }

    /// Removes and returns read `id`.
    mutating func takeRead(_ id: String) -> Read? {
        reads.removeValue(forKey: id)
    }

    /// Resumes the callers waiting for `path`'s first snapshot.
    mutating func synced(_ path: JSONPointer) {
        for waiter in syncWaiters.removeValue(forKey: path) ?? [] { waiter.resume() }
    }

    /// Fails the callers waiting for `path`'s first snapshot.
    mutating func failSync(_ path: JSONPointer, with error: any Error) {
        for waiter in syncWaiters.removeValue(forKey: path) ?? [] { waiter.resume(throwing: error) }
    }

    /// Fails every waiting caller with `error`.
    mutating func failAll(with error: any Error) {
        let dispatches = dispatches.values, reads = reads.values, syncs = syncWaiters.values
        self = PendingRequests()
        for dispatch in dispatches { dispatch.continuation?.resume(throwing: error) }
        for read in reads { read.continuation.resume(throwing: error) }
        for waiter in syncs.joined() { waiter.resume(throwing: error) }
    }
}
