public import StateSyncCore

/// One change of a path of a ``StateSyncClient``'s mirror: the revision that
/// made it and the new value (see ``StateSyncClient/changes(at:)``).
public struct MirrorChange: Sendable, Hashable {
    /// The revision of the snapshot or patch that brought the value.
    public let rev: UInt64
    /// The value at the path (`null` where nothing is).
    public let value: JSONValue

    /// A change to `value` at revision `rev`.
    public init(rev: UInt64, value: JSONValue) {
        self.rev = rev
        self.value = value
    }
}
