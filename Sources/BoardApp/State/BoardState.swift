/// The state of the `board` example application (docs/PROTOCOL.md), the server's built-in
/// default. Its `Codable` form is exactly the protocol's JSON shape.
///
/// ```swift
/// let json = try JSONValueEncoder().encode(BoardState())
/// // {"chat":[],"counters":{},"presence":{},"todos":[]}
/// ```
public struct BoardState: Sendable, Hashable, Codable {
    /// The to-do list, in the order added.
    public var todos: [Todo]
    /// Named counters.
    public var counters: [String: Int64]
    /// The last ``BoardRules/chatHistory`` chat messages, oldest first.
    public var chat: [ChatMessage]
    /// The connected sessions by session id, written by the server's
    /// session commands only.
    public var presence: [String: Presence]

    /// A board with the given contents (empty by default).
    public init(
        todos: [Todo] = [],
        counters: [String: Int64] = [:],
        chat: [ChatMessage] = [],
        presence: [String: Presence] = [:]
    ) {
        self.todos = todos
        self.counters = counters
        self.chat = chat
        self.presence = presence
    }
}
