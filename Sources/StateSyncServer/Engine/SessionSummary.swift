public import StateSyncProtocol

/// One joined session as the engine sees it, for devtools
/// (``SyncEngine/sessions()``): who it is, what it watches, and how much is
/// waiting to be written to it.
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
    /// Bytes queued for it and not yet written to its socket.
    public var bufferedBytes: Int
    /// Whether it is a slow consumer (over the high-water mark, patches held back).
    public var isSlow: Bool

    /// One open subscription.
    public struct Subscription: Sendable, Hashable {
        /// The id the client chose.
        public var id: String
        /// The JSON Pointer it watches, as text (`""` is the whole state).
        public var path: String
    }
}
