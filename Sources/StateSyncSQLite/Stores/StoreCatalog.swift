/// Which stores the stores' file holds, as this server knows them: the
/// 64-bit hash of each existing store's name (8 bytes a store, however long
/// its name, so that a server that has created a million stores does not
/// hold a million names), loaded when the file opens and kept current by
/// its own creations and deletions (it is the file's only writer), so that
/// a server can ask whether a store exists without reading the file.
/// Names and ids stay in the file.
///
/// The hashes are Swift's, seeded at random for each process, so no one
/// can choose a name that collides with another; two names colliding by
/// chance (about 1 in 10^7 with a million stores) would make the newer one
/// look existing, which ``SQLiteStores`` answers by creating it when it
/// opens.
///
/// A store being created has its id reserved (ids are never used twice),
/// and exists from then on; its row is written with its journal's first
/// commit (``PendingStoreRow``).
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
