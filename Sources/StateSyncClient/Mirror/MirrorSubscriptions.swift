import StateSyncCore

/// The client's server subscriptions and the value each mirrors: applies snapshots and patches, checks `base`
/// chaining, and says what to write into the mirror document; a plain value with no I/O. Known by path, a
/// subscription gets a new wire id on each (re)subscribe, so late messages for an older id are ignored.
struct MirrorSubscriptions: Sendable {
    /// One subscription.
    struct Record: Sendable, Equatable {
        /// The focused path.
        let path: JSONPointer
        /// The id of the latest `subscribe` sent for it.
        var wireID: String
        /// The revision of the mirrored value; `nil` until the first snapshot
        /// (and again after an epoch change).
        var rev: UInt64?
        /// The mirrored value (`null` when nothing is at the path).
        var value: JSONValue = nil

        /// Whether a snapshot has arrived.
        var isSynced: Bool { rev != nil }
    }

    /// What a received snapshot or patch means for the mirror.
    enum Outcome: Equatable {
        /// Write `value` at `path` (and rewrite the subscriptions nested in it).
        case write(path: JSONPointer, value: JSONValue)
        /// A revision was missed (resume after the mirrored one), or the ops
        /// did not apply (the revision is forgotten, for a fresh snapshot):
        /// re-subscribe `path`.
        case resubscribe(path: JSONPointer)
        /// The message is for an id that is no longer current: ignore it.
        case ignore
    }

    private(set) var records: [JSONPointer: Record] = [:]
    private var pathByWireID: [String: JSONPointer] = [:]

    /// The subscription of `path`, if any.
    subscript(path: JSONPointer) -> Record? { records[path] }

    /// The path subscribed as `wireID`, if it is current.
    func path(forWireID wireID: String) -> JSONPointer? { pathByWireID[wireID] }

    /// The subscription whose path is `path` or contains it (synced or not),
    /// preferring the closest; `nil` when none covers it.
    func covering(_ path: JSONPointer) -> Record? {
        records.values
            .filter { $0.path.isPrefix(of: path) }
            .max { $0.path.tokens.count < $1.path.tokens.count }
    }

    /// Starts (or restarts) `path` under `wireID`. Returns the `since` to
    /// send (the mirrored revision, when there is one) and the wire id this
    /// one replaces on the current connection, to be unsubscribed.
    mutating func subscribe(_ path: JSONPointer, wireID: String) -> (since: UInt64?, replaced: String?) {
        var replaced: String?
        if let old = records[path]?.wireID, pathByWireID.removeValue(forKey: old) != nil { replaced = old }
        pathByWireID[wireID] = path
        if records[path] == nil { records[path] = Record(path: path, wireID: wireID) }
        records[path]?.wireID = wireID
        return (records[path]?.rev, replaced)
    }

    /// Forgets `path`; returns its wire id when it was subscribed.
    mutating func remove(_ path: JSONPointer) -> String? {
        guard let record = records.removeValue(forKey: path) else { return nil }
        pathByWireID[record.wireID] = nil
        return record.wireID
    }

    /// Forgets every wire id (the connection is gone); with `newEpoch`, also
    /// every revision, so that the next subscribe asks for a fresh snapshot.
    mutating func connectionEnded(newEpoch: Bool) {
        pathByWireID = [:]
        guard newEpoch else { return }
        for path in records.keys { records[path]?.rev = nil }
    }

    /// Applies `snapshot` for `wireID`.
    mutating func snapshot(wireID: String, rev: UInt64, value: JSONValue) -> Outcome {
        guard let path = pathByWireID[wireID] else { return .ignore }
        records[path]?.rev = rev
        records[path]?.value = value
        return .write(path: path, value: value)
    }

    /// Applies `patch` for `wireID` when its `base` is the mirrored revision.
    mutating func patch(wireID: String, base: UInt64, rev: UInt64, ops: JSONPatch) -> Outcome {
        guard let path = pathByWireID[wireID], var record = records[path] else { return .ignore }
        guard record.rev == base else { return .resubscribe(path: path) }
        do {
            try ops.apply(to: &record.value)
        } catch {
            records[path]?.rev = nil
            return .resubscribe(path: path)
        }
        record.rev = rev
        records[path] = record
        return .write(path: path, value: record.value)
    }

    /// The synced subscriptions strictly inside `path`, outermost first: their
    /// values are written again after `path`'s, since they may be newer.
    func nested(in path: JSONPointer) -> [Record] {
        records.values
            .filter { $0.path != path && path.isPrefix(of: $0.path) && $0.isSynced }
            .sorted { $0.path.tokens.count < $1.path.tokens.count }
    }
}
