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

    /// One part of the state a footprint says may have changed, as a
    /// derived copy needs it (see ``changedParts``).
    package enum ChangedPart {
        /// Anything under this key path from the root state.
        case keyPath(AnyKeyPath)
        /// The element with `key` of the keyed collection at `collection`
        /// (added, changed or removed).
        case element(collection: AnyKeyPath, key: AnyHashable)
    }

    /// The parts (from the root state) this footprint says may have changed,
    /// element regions kept as elements, so that a derived copy can update
    /// one element of a large collection instead of the whole collection:
    /// `[]` for ``nothing``, `nil` for ``everything``.
    package var changedParts: [ChangedPart]? {
        switch storage {
        case .nothing: return []
        case .everything: return nil
        case .one(let region): return [Self.part(of: region)]
        case .many(let regions): return regions.map(Self.part(of:))
        }
    }

    private static func part(of region: Region) -> ChangedPart {
        switch region {
        case .keyPath(let path): .keyPath(path)
        case .element(let collection, let key): .element(collection: collection, key: key)
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
