import StateSyncCore

/// The app's state as a ``JSONValue``, kept up to date action by action so
/// that consecutive revisions share the storage of every unchanged part
/// (which makes ``JSONPatch/diff(from:to:at:)`` skip them in O(1)).
///
/// Strategies, cheapest first:
/// - `State` is ``JSONValue``: the state is its own mirror.
/// - The reducer's ``Footprint`` names elements of a `String`-keyed
///   dictionary whose key path ``StateSyncApp/jsonPointer(for:)`` maps:
///   only those elements are re-encoded and added, replaced or removed in
///   the mirror's object (a join among 10,000 present sessions encodes one
///   presence entry, not 10,000).
/// - The reducer's ``Footprint`` names key paths that
///   ``StateSyncApp/jsonPointer(for:)`` maps: only those values are
///   re-encoded and replaced in the mirror (cost of the changed part).
/// - Otherwise (``Footprint/everything``, an unmapped key path, a path
///   missing in the mirror): the whole state is re-encoded.
///
/// Either way the re-encoded part is then made to share the storage of its
/// unchanged parts with the previous revision (``JSONValue/sharingStorage(with:)``),
/// so the history window and later diffs pay only for what changed.
struct StateMirror<App: StateSyncApp> {
    /// The JSON form of the state.
    private(set) var json: JSONValue
    /// How many times the whole state was re-encoded (for tests and benchmarks).
    private(set) var fullEncodes = 0
    /// What the updates since the last ``takeChange()`` changed.
    private var change = MirrorDelta()

    private let encoder = JSONValueEncoder()

    /// The mirror of `state`, fully encoded.
    init(_ state: App.State) throws(SyncEngineError) {
        json = .null
        try encodeAll(state)
        change = MirrorDelta()   // the first encoding is the starting point, not a change to publish
    }

    /// Brings the mirror to `state` after a reduction that reported `footprint`.
    mutating func update(to state: App.State, footprint: Footprint) throws(SyncEngineError) {
        if let value = state as? JSONValue {
            json = value
            // The app changed the JSON itself: where is found by diffing.
            change.cost += Self.width(value)
            change.paths = nil
            return
        }
        guard let parts = footprint.changedRegions else {
            try encodeAll(state)
            return
        }
        for part in parts {
            let replaced = switch part {
            case .keyPath(let keyPath): replace(keyPath, in: state)
            case let .element(collection, key): replaceElement(key, of: collection, in: state) || replace(collection, in: state)
            }
            guard replaced else {
                try encodeAll(state)
                return
            }
        }
    }

    /// Re-encodes the element `key` of the dictionary under `collection`
    /// into the mirror's object at the collection's pointer (adding,
    /// replacing or removing the member); `false` when the collection is not
    /// a mapped, `String`-keyed dictionary encoded as that object, and the
    /// whole collection must be re-encoded.
    private mutating func replaceElement(_ key: AnyHashable, of collection: AnyKeyPath, in state: App.State) -> Bool {
        guard let pointer = App.jsonPointer(for: collection), let name = key.base as? String,
              case .object = json[pointer], let keyed = state[keyPath: collection] as? any KeyedCollection,
              let element = Self.element(key, of: keyed)
        else { return false }
        let member = pointer.appending(name)
        do {
            if let value = element {
                // An unencodable element: the caller re-encodes more, which reports the error.
                guard let part = value as? any Encodable, let encoded = try? encoder.encode(part) else { return false }
                let shared = encoded.sharingStorage(with: json[member] ?? .null)
                charge(member, shared)
                try json.add(shared, at: member)
            } else if json[member] != nil {
                charge(member, .null)
                try json.remove(at: member)
            }
            return true
        } catch {
            return false
        }
    }

    /// The element `key` of `collection` (`.some(nil)` when absent), or
    /// `nil` when `key` is not of the collection's key type.
    private static func element<Collection: KeyedCollection>(_ key: AnyHashable, of collection: Collection) -> Any?? {
        guard let key = key.base as? Collection.Key else { return nil }
        return .some(collection.element(withKey: key))
    }

    /// What the updates since the last call changed; starts again empty.
    mutating func takeChange() -> MirrorDelta {
        defer { change = MirrorDelta() }
        return change
    }

    /// Records a change at `pointer` to `value`: every container on the
    /// path to it is copied, and the value's own members are new.
    private mutating func charge(_ pointer: JSONPointer, _ value: JSONValue) {
        var container = json
        change.cost += Self.width(container) + Self.width(value)
        for token in pointer.tokens.dropLast() {
            guard let child = container[token] else { break }
            change.cost += Self.width(child)
            container = child
        }
        change.paths?.append(pointer)
    }

    /// Members or elements of a container; 1 for a scalar.
    private static func width(_ value: JSONValue) -> Int {
        if let object = value.objectValue { return object.count + 1 }
        if let array = value.arrayValue { return array.count + 1 }
        return 1
    }

    /// Re-encodes the value under `keyPath` into the mirror; `false` when
    /// that is not possible and a full encode is needed.
    private mutating func replace(_ keyPath: AnyKeyPath, in state: App.State) -> Bool {
        guard let pointer = App.jsonPointer(for: keyPath),
              let part = state[keyPath: keyPath] as? any Encodable,
              let value = try? encoder.encode(part)
        else { return false }
        // A path the mirror lacks (or an unencodable part) means the mapping
        // does not describe this state: the caller falls back to a full
        // encode, which reports the encoding error if there is one.
        do {
            let previous = json[pointer] ?? .null
            let shared = value.sharingStorage(with: previous)
            charge(pointer, shared)
            try json.replace(at: pointer, with: shared)
            return true
        } catch {
            return false
        }
    }

    private mutating func encodeAll(_ state: App.State) throws(SyncEngineError) {
        fullEncodes += 1
        if let value = state as? JSONValue {
            json = value
            return
        }
        do {
            json = try encoder.encode(state).sharingStorage(with: json)
            let children: [JSONValue] = json.objectValue.map { Array($0.values) } ?? json.arrayValue ?? []
            change.cost += children.reduce(Self.width(json)) { $0 + Self.width($1) }
            change.paths = nil
        } catch {
            throw .unencodableState(reason: "\(error)")
        }
    }
}
