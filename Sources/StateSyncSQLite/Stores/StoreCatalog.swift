/// Which stores the stores' file holds, as this server (its only writer) knows them: the
/// 64-bit hash of each name, 8 bytes a store, so a million stores hold no million names.
/// The hashes are Swift's, seeded per process, so no one can choose a colliding name; a chance
/// collision makes a new name look existing, which ``SQLiteStores`` answers by creating it.
/// A store being created has its id reserved (never reused); its row is written with its
/// journal's first commit (``PendingStoreRow``).
struct StoreCatalog: Sendable {
    private var existing: Set<Int>
    private var nextID: Int64

    /// The catalog of a file whose largest store id is `largestID`; each
    /// existing store is added with ``add(existing:)``.
    init(largestID: Int64) {
        existing = []
        nextID = largestID + 1
    }

    /// Adds `name`, a store the file holds, while loading.
    mutating func add(existing name: String) {
        existing.insert(name.hashValue)
    }

    /// What ``lookUpOrReserve(_:)`` found.
    enum Lookup: Sendable, Hashable {
        /// The store exists: read its id from the file.
        case existing
        /// The store does not exist: create it with this id.
        case new(Int64)
    }

    /// Whether `name` exists, or else a new id reserved for it.
    mutating func lookUpOrReserve(_ name: String) -> Lookup {
        if existing.contains(name.hashValue) { return .existing }
        return .new(reserveID())
    }

    /// A new id, never used before.
    mutating func reserveID() -> Int64 {
        defer { nextID += 1 }
        return nextID
    }

    /// The store `name` was created.
    mutating func created(_ name: String) {
        existing.insert(name.hashValue)
    }

    /// The store `name` was deleted.
    mutating func removed(_ name: String) {
        existing.remove(name.hashValue)
    }

    /// Whether the store `name` exists.
    func contains(_ name: String) -> Bool { existing.contains(name.hashValue) }

    /// How many stores exist (two names whose hashes collide count once).
    var count: Int { existing.count }
}
