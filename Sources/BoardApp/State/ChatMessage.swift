/// One chat line: `{"from":"alice","text":"hi","at":"2026-11-21T10:00:00Z"}`.
public struct ChatMessage: Sendable, Hashable, Codable {
    /// The name of the session that said it (from its `hello`, supplied by
    /// the server, never by the client), or `dice` for a roll's result.
    public var from: String
    /// What was said: 1 to ``BoardRules/maxMessageLength`` Unicode scalars.
    public var text: String
    /// When the server accepted it: ISO 8601 in UTC (see ``BoardTime``).
    public var at: String

    /// A chat line.
    public init(from: String, text: String, at: String) {
        self.from = from
        self.text = text
        self.at = at
    }
}
