extension Footprint {
    /// The key paths (from the root state) under which this footprint says
    /// something may have changed, for modules of this package that keep a
    /// derived copy of the state (the server's JSON mirror re-encodes only
    /// these parts): `[]` for ``nothing``, `nil` for ``everything``. An
    /// element region is widened to its whole collection.
    package var changedKeyPaths: [AnyKeyPath]? {
        switch storage {
        case .nothing: return []
        case .everything: return nil
        case .one(let region): return [Self.keyPath(of: region)]
        case .many(let regions): return regions.map(Self.keyPath(of:))
        }
    }

    /// The key path a region lies under.
    private static func keyPath(of region: Region) -> AnyKeyPath {
        switch region {
        case .keyPath(let path): path
        case .element(let collection, _): collection
        }
    }
}
