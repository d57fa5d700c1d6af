/// A server message with the store it is about, as a client of many stores
/// reads it (``MessageDecoder/decodeStoreScopedServerMessage(_:)``).
public struct StoreScopedServerMessage: Sendable, Hashable {
    /// The message itself.
    public var message: ServerMessage
    /// The store it is about: its `store` field, or ``StoreName/main``
    /// without one (`welcome`, main's messages, errors about no store).
    public var store: StoreName
    /// The store's epoch, which a `snapshot` or `value` of a store other
    /// than `main` carries; `nil` for every other message.
    public var epoch: String?

    /// `message` about `store`, carrying `epoch`.
    public init(message: ServerMessage, store: StoreName = .main, epoch: String? = nil) {
        self.message = message
        self.store = store
        self.epoch = epoch
    }
}
