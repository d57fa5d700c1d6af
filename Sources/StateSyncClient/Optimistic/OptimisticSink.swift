import StateSyncCore

/// What the client tells an optimistic mirror, on its actor and in order: dispatches, confirmed document,
/// answers, and when to show the result (``publish()``), so observers never see a state between two steps.
protocol OptimisticSink: AnyObject, Sendable {
    /// The client dispatched `action` as `id`: predict it and show it now.
    func enqueue(id: String, action: JSONObject)
    /// The mirror's document (the whole state) is now `document`, at `rev`,
    /// changed by `changes` (absolute paths; one at the root for a snapshot).
    func confirm(document: JSONValue, rev: UInt64, changes: [JSONPatchOperation])
    /// Actions `ids` were sent again after a drop or a restart: the server
    /// may have applied them already, so they are not predicted until answered.
    func doubt(ids: Set<String>)
    /// Action `id` was answered (ack, reject, error): it is no longer pending.
    func settle(id: String)
    /// The server rejected one of the client's actions.
    func rejected(_ rejection: DispatchRejection)
    /// Shows the current prediction to observers, if it changed.
    func publish()
}

/// A weak reference to a sink, so a mirror nobody uses goes away.
struct WeakOptimisticSink {
    weak var sink: (any OptimisticSink)?
}
