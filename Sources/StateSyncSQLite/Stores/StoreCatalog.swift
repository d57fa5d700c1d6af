/// The stores of the stores' file as this server knows them (name → id),
/// loaded when the file opens and kept current by its own creations and
/// deletions (it is the file's only writer), so that a server can ask
/// whether a store exists, or list them, without reading the file.
///
/// A store being created has its id reserved, and exists once its row is
/// committed.
struct StoreCatalog: Sendable {
    private var ids: [String: Int64]
    private var reserved: [String: Int64] = [:]
    private var nextID: Int64

    /// The catalog of a file whose stores are `ids`.
    init(ids: [String: Int64]) {
        self.ids = ids
        nextID = (ids.values.max() ?? 0) + 1
    }

    /// What ``idOrReserve(_:)`` found.
    enum Lookup: Sendable, Hashable {
        /// The store exists with this id.
        case existing(Int64)
        /// The store does not exist: create it with this id.
        case new(Int64)
    }

    /// The id of `name`, or a new id reserved for it.
    mutating func idOrReserve(_ name: String) -> Lookup {
        if let id = ids[name] { return .existing(id) }
        let id = nextID
        nextID += 1
        reserved[name] = id
        return .new(id)
    }

    /// The store `name`'s row is committed with `id`.
    mutating func created(_ name: String, id: Int64) {
        reserved[name] = nil
        ids[name] = id
    }

    /// Creating `name` failed: its id is not used.
    mutating func release(_ name: String) {
        reserved[name] = nil
    }

    /// The store `name` was deleted.
    mutating func removed(_ name: String) {
        ids[name] = nil
    }

    /// The id of the existing store `name`.
    func id(of name: String) -> Int64? { ids[name] }

    /// The existing stores' names, in no order.
    var names: [String] { Array(ids.keys) }
}
