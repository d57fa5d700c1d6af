extension Footprint {
    /// The regions from the root that may have changed, elements kept as
    /// elements, so the server's JSON mirror can update one element of a large
    /// collection: `[]` for ``nothing``, `nil` for ``everything``.
    package var changedRegions: [Region]? {
        if case .everything = storage { return nil }
        return regions
    }
}
