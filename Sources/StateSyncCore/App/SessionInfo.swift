/// A session as the server knows it: its id (sent in `welcome`) and its `hello`
/// name, or one the server chose (so ``name`` is never empty). The server fills
/// it in, never the client, so a reducer can trust it.
public struct SessionInfo: Sendable, Hashable, Codable {
    /// The session id, e.g. `s-91`.
    public var id: String
    /// The session's display name, e.g. `alice-laptop`.
    public var name: String

    /// A session named `name` with id `id`.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
