public import StateSyncCore

/// What a joined session asks of the engine. The session layer turns each
/// valid client message into one, ``SyncEngine/handle(_:from:)`` queues it,
/// and the answer goes through the session's ``SessionSink``.
///
/// ```swift
/// engine.handle(.subscribe(id: "s1", path: try JSONPointer(parsing: "/todos"), since: nil), from: "s-1")
/// engine.handle(.dispatch(id: "a1", action: ["type": "addTodo", "title": "Milk"]), from: "s-1")
/// ```
public enum SessionRequest: Sendable, Equatable {
    /// Opens (or replaces) subscription `id` at `path`: a `snapshot`, or a
    /// `patch` from `since` when the history window still holds it.
    case subscribe(id: String, path: JSONPointer, since: UInt64?)
    /// Closes subscription `id` and confirms with `unsubscribed`.
    case unsubscribe(id: String)
    /// Answers `value` with the value at `path` at the latest durable revision.
    case get(id: String, path: JSONPointer)
    /// Applies the client action `action`; answers `ack` once durable, or `reject`.
    case dispatch(id: String, action: JSONObject)

    /// The request's `id`, which its answer carries.
    public var id: String {
        switch self {
        case .subscribe(let id, _, _), .unsubscribe(let id), .get(let id, _), .dispatch(let id, _): id
        }
    }
}
