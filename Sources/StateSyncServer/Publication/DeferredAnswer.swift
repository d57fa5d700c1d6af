import StateSyncCore

/// An answer held back for a slow session, sent in order once it drains.
enum DeferredAnswer {
    /// An encoded `ack`, `reject` or `unsubscribed`.
    case message([UInt8])
    /// A `get`, answered when it is sent, with the value at that revision:
    /// holding the request instead of the value keeps no old state alive and
    /// encodes nothing until the session can take it.
    case value(id: String, path: JSONPointer)

    /// What it holds, in bytes, for ``SyncEngineConfiguration/maxDeferredBytes``.
    var bytes: Int {
        switch self {
        case .message(let bytes): bytes.count
        case let .value(id, path): id.utf8.count + path.tokens.reduce(0) { $0 + $1.utf8.count + 1 }
        }
    }
}
