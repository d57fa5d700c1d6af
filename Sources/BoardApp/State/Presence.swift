/// A connected session: `{"name":"alice-laptop","since":"2026-11-21T09:58:00Z"}`.
public struct Presence: Sendable, Hashable, Codable {
    /// The name the session gave in `hello` (or the server's default).
    public var name: String
    /// When the session joined: ISO 8601 in UTC (see ``BoardTime``).
    public var since: String

    /// A presence entry.
    public init(name: String, since: String) {
        self.name = name
        self.since = since
    }
}
