public import StateSyncProtocol

/// One joined session as the engine sees it, for devtools
/// (``SyncEngine/sessions()``): who it is, what it watches, and whether
/// the engine is holding its messages back.
public struct SessionSummary: Sendable, Hashable {
    /// The session id (`welcome.session`).
    public var id: String
    /// The name from `hello` (the id when it gave none).
    public var name: String
    /// The `clientId` from `hello`, if any.
    public var clientID: String?
    /// Its role.
    public var role: Role
    /// Its open subscriptions: id and JSON Pointer, sorted by id.
    public var subscriptions: [Subscription]
    /// Whether it is a slow consumer: its connection stopped being writable,
    /// so its patches are held back (to be coalesced) until it drains.
    public var isSlow: Bool
    /// Answers (`ack`, `reject`, `value`, …) held back while it is slow.
    public var deferredAnswers: Int

    /// One open subscription.
    public struct Subscription: Sendable, Hashable {
        /// The id the client chose.
        public var id: String
        /// The JSON Pointer it watches, as text (`""` is the whole state).
        public var path: String
    }
}
