/// What an action may have changed, as a reducer reports it: a promise that
/// nothing outside it changed, so the store skips the other observers. Not
/// `Sendable` (key paths and `AnyHashable` are not): it lives in one dispatch.
public struct Footprint {
    /// One changed region.
    package enum Region {
        /// Anything under this key path from the root state.
        case keyPath(AnyKeyPath)
        /// The element with `key` in the keyed collection at `collection`.
        case element(collection: AnyKeyPath, key: AnyHashable)
    }

    /// The regions (a single one stored inline, without an array allocation).
    enum Storage {
        case nothing
        case everything
        case one(Region)
        case many([Region])
    }

    let storage: Storage

    /// The action changed nothing (e.g. no reducer handled it).
    public static var nothing: Footprint { Footprint(storage: .nothing) }

    /// The action may have changed anything: every observer is checked.
    public static var everything: Footprint { Footprint(storage: .everything) }

    /// The action changed at most what lies under `path` (a key path from the root state).
    public static func keyPath(_ path: AnyKeyPath) -> Footprint {
        Footprint(storage: .one(.keyPath(path)))
    }

    /// The action changed at most the element with `key` of the keyed collection at `collection`.
    public static func element(of collection: AnyKeyPath, key: some Hashable) -> Footprint {
        Footprint(storage: .one(.element(collection: collection, key: AnyHashable(key))))
    }

    /// Whether this footprint says nothing changed.
    public var isNothing: Bool {
        if case .nothing = storage { return true }
        return false
    }

    /// Both footprints together.
    public func union(_ other: Footprint) -> Footprint {
        switch (storage, other.storage) {
        case (.nothing, _): return other
        case (_, .nothing): return self
        case (.everything, _), (_, .everything): return .everything
        default: return Footprint(storage: .many(regions + other.regions))
        }
    }

    /// This footprint, relative to a child state, rewritten relative to the
    /// parent holding the child at `path`. Appending key paths allocates: a
    /// nested ``Scope`` costs an allocation per action it handles.
    public func prefixed(by path: AnyKeyPath) -> Footprint {
        switch storage {
        case .nothing: return self
        case .everything: return .keyPath(path)
        case .one(let region): return Footprint(storage: .one(Self.prefix(region, with: path)))
        case .many(let regions): return Footprint(storage: .many(regions.map { Self.prefix($0, with: path) }))
        }
    }

    /// The regions, empty for ``nothing`` and ``everything``.
    var regions: [Region] {
        switch storage {
        case .nothing, .everything: return []
        case .one(let region): return [region]
        case .many(let regions): return regions
        }
    }

    /// `region` moved under `path`. Appending a key path to the `path` it
    /// starts from never fails; if it did, the region widens to `path` itself.
    private static func prefix(_ region: Region, with path: AnyKeyPath) -> Region {
        switch region {
        case .keyPath(let inner):
            return .keyPath(path.appending(path: inner) ?? path)
        case .element(let collection, let key):
            guard let full = path.appending(path: collection) else { return .keyPath(path) }
            return .element(collection: full, key: key)
        }
    }

    /// When every region is an element of the collection at `collection`, calls
    /// `body` with each key and returns `true`; otherwise returns `false`
    /// without calling it (the store then compares values).
    func forEachChangedKey(in collection: AnyKeyPath, _ body: (AnyHashable) -> Void) -> Bool {
        switch storage {
        case .nothing:
            return true
        case .everything, .one(.keyPath):
            return false
        case .one(.element(let path, let key)):
            guard path == collection else { return false }
            body(key)
            return true
        case .many(let regions):
            for region in regions {
                guard case .element(let path, _) = region, path == collection else { return false }
            }
            for case .element(_, let key) in regions { body(key) }
            return true
        }
    }
}
