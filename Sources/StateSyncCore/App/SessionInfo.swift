/// A session as the server knows it: its id (sent in `welcome`) and the name
/// it gave in `hello`.
///
/// The server fills this in, never the client's action: a reducer can trust
/// it. When `hello` has no `name`, the server chooses one (the session id is
/// a good default) so that ``name`` is never empty.
///
/// ```swift
/// let alice = SessionInfo(id: "s-91", name: "alice-laptop")
/// ```
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
