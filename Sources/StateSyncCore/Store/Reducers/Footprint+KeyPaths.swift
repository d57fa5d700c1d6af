extension Footprint {
    /// The regions (from the root state) this footprint says may have
    /// changed, element regions kept as elements, so that a module of this
    /// package keeping a derived copy of the state (the server's JSON mirror)
    /// can update one element of a large collection instead of the whole
    /// collection: `[]` for ``nothing``, `nil` for ``everything``.
    package var changedRegions: [Region]? {
        if case .everything = storage { return nil }
        return regions
    }
}
