/// The run's JSON Pointers (subscription and action paths) as small integers: do two
/// paths overlap, and how many subscriptions hear a change at a path. An escaped `/`
/// is `~1`, so splitting a pointer's text at `/` gives its tokens.
struct PathTable {
    /// A path's id: its index in the tables below.
    typealias ID = Int32

    private var ids: [String: ID] = [:]
    /// Per id: the ids of the path's ancestors and itself, root first.
    private var lineage: [[ID]] = []
    /// Per id: subscriptions exactly at this path.
    private var subscribersAt: [Int] = []
    /// Per id: subscriptions at this path or below it.
    private var subscribersWithin: [Int] = []

    /// The id of `path`, adding it (and its ancestors) when new.
    mutating func intern(_ path: String) -> ID {
        if let id = ids[path] { return id }
        var ancestry: [ID] = []
        if !path.isEmpty, let slash = path.lastIndex(of: "/") {
            let parent = intern(String(path[..<slash]))
            ancestry = lineage[Int(parent)]
        }
        let id = ID(lineage.count)
        ids[path] = id
        lineage.append(ancestry + [id])
        subscribersAt.append(0)
        subscribersWithin.append(0)
        return id
    }

    /// Counts one subscription at `path`; returns its id.
    mutating func addSubscription(_ path: String) -> ID {
        let id = intern(path)
        subscribersAt[Int(id)] += 1
        for ancestor in lineage[Int(id)] {
            subscribersWithin[Int(ancestor)] += 1
        }
        return id
    }

    /// Whether a change at one path is a change at the other.
    func overlaps(_ a: ID, _ b: ID) -> Bool {
        lineage[Int(a)].contains(b) || lineage[Int(b)].contains(a)
    }

    /// How many subscriptions must hear a change at `id`: those at or below
    /// it, and those above it.
    func subscribersAffected(by id: ID) -> Int {
        var count = subscribersWithin[Int(id)]
        for ancestor in lineage[Int(id)].dropLast() {
            count += subscribersAt[Int(ancestor)]
        }
        return count
    }
}
