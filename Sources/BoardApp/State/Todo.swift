/// One to-do item: `{"id":"t1","title":"Milk","done":false,"priority":"normal"}`.
public struct Todo: Sendable, Hashable, Codable, Identifiable {
    /// `t<rev>`: `t` and the revision of the `addTodo` that created it.
    public var id: String
    /// The title: 1 to ``BoardRules/maxTitleLength`` Unicode scalars.
    public var title: String
    /// Whether it is done.
    public var done: Bool
    /// How urgent it is (since app schema version 2): `normal` when added.
    public var priority: TodoPriority

    /// A to-do item.
    public init(id: String, title: String, done: Bool = false, priority: TodoPriority = .normal) {
        self.id = id
        self.title = title
        self.done = done
        self.priority = priority
    }
}
