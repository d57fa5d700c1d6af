/// How urgent a todo is: `"low"`, `"normal"` or `"high"` on the wire. Added
/// by the board's app schema version 2 (``BoardMigrations``); todos of
/// version 1 become `normal`.
public enum TodoPriority: String, Sendable, Hashable, Codable, CaseIterable {
    /// Can wait.
    case low
    /// The default of every new todo.
    case normal
    /// Do it first.
    case high
}
