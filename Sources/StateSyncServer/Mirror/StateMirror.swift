import StateSyncCore

/// The app's state as a ``JSONValue``, kept up to date action by action so
/// that consecutive revisions share the storage of every unchanged part
/// (which makes ``JSONPatch/diff(from:to:at:)`` skip them in O(1)).
///
/// Strategies, cheapest first:
/// - `State` is ``JSONValue``: the state is its own mirror.
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

    private let encoder = JSONValueEncoder()

    /// The mirror of `state`, fully encoded.
    init(_ state: App.State) throws(SyncEngineError) {
        json = .null
        try encodeAll(state)
    }

    /// Brings the mirror to `state` after a reduction that reported `footprint`.
    mutating func update(to state: App.State, footprint: Footprint) throws(SyncEngineError) {
        if let value = state as? JSONValue {
            json = value
            return
        }
        guard let keyPaths = footprint.changedKeyPaths else {
            try encodeAll(state)
            return
        }
        for keyPath in keyPaths {
            guard replace(keyPath, in: state) else {
                try encodeAll(state)
                return
            }
        }
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
            try json.replace(at: pointer, with: value.sharingStorage(with: previous))
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
        } catch {
            throw .unencodableState(reason: "\(error)")
        }
    }
}
