import StateSyncCore

/// The app's state as a ``JSONValue``, updated action by action, re-encoding
/// only what the reducer's ``Footprint`` names, so consecutive revisions share
/// unchanged storage (``JSONValue/sharingStorage(with:)``) and diffs skip it.
struct StateMirror<App: StateSyncApp> {
    /// The JSON form of the state.
    private(set) var json: JSONValue
    /// About how many bytes ``json`` takes serialized (``JSONValue/estimatedJSONBytes(upTo:)``),
    /// kept up to date from each change rather than measured again.
    private(set) var estimatedBytes: Int
    /// How many times the whole state was re-encoded (for tests and benchmarks).
    private(set) var fullEncodes = 0
    /// What the updates since the last ``takeChange()`` changed.
    private var change = MirrorDelta()

    let encoder = JSONValueEncoder()

    /// The mirror of `state`, fully encoded.
    init(_ state: App.State) throws(SyncEngineError) {
        json = .null
        estimatedBytes = JSONValue.null.estimatedJSONBytes()
        _ = try encodeAll(state, limit: .max)
        change = MirrorDelta()   // the first encoding is the starting point, not a change to publish
    }

    /// The mirror of a state decoded from `json` (a snapshot the engine
    /// serialized from its own mirror): `json` itself, not encoded again.
    init(decodedFrom json: JSONValue) {
        self.json = json
        estimatedBytes = json.estimatedJSONBytes()
    }

    /// Starts the changes to publish afresh: what the updates so far did
    /// (replaying a journal) is the starting point.
    mutating func forgetChanges() {
        change = MirrorDelta()
    }

    /// Brings the mirror to `state` after a reduction that reported `footprint`,
    /// unless that would grow ``estimatedBytes`` above `limit`: then it is left
    /// as it was and the result is `false`. A change that does not grow is always taken.
    @discardableResult
    mutating func update(to state: App.State, footprint: Footprint, limit: Int = .max) throws(SyncEngineError) -> Bool {
        if let value = state as? JSONValue {
            let growth = value.estimatedJSONBytesGrowth(from: json)
            guard Self.fits(growth, on: estimatedBytes, limit: limit) else { return false }
            json = value
            estimatedBytes += growth
            // The app changed the JSON itself: where is found by diffing.
            change.cost += MirrorDelta.width(value)
            change.paths = nil
            return true
        }
        guard let parts = footprint.changedRegions else {
            return try encodeAll(state, limit: limit)
        }
        var steps: [MirrorStep] = []
        for part in parts {
            let step = switch part {
            case .keyPath(let keyPath):
                replacement(of: keyPath, in: state)
            case let .element(collection, key):
                elementStep(key, of: collection, in: state)
                    ?? arrayElementStep(key, of: collection, in: state, alone: Self.count(of: collection, in: parts) == 1)
                    ?? replacement(of: collection, in: state)
            }
            guard let step else { return try encodeAll(state, limit: limit) }
            steps.append(step)
        }
        let growth = steps.reduce(0) { $0 + $1.growth }
        guard Self.fits(growth, on: estimatedBytes, limit: limit) else { return false }
        for step in steps {
            guard apply(step) else {
                // Each step was checked against the mirror: cannot happen.
                return try encodeAll(state, limit: .max)
            }
            estimatedBytes += step.growth
        }
        return true
    }

    private static func fits(_ growth: Int, on bytes: Int, limit: Int) -> Bool {
        growth <= 0 || bytes + growth <= limit
    }

    /// How many of `parts` name `collection` or an element of it.
    private static func count(of collection: AnyKeyPath, in parts: [Footprint.Region]) -> Int {
        parts.reduce(0) { count, part in
            switch part {
            case .keyPath(let path): count + (path == collection ? 1 : 0)
            case .element(let path, _): count + (path == collection ? 1 : 0)
            }
        }
    }

    /// Puts `step` in the mirror; `false` when the mirror's shape refused it.
    private mutating func apply(_ step: MirrorStep) -> Bool {
        guard step.value != nil || json[step.pointer] != nil else { return true }
        charge(step.pointer, step.value ?? .null)
        do {
            if let value = step.value {
                if step.adds { try json.add(value, at: step.pointer) } else { try json.replace(at: step.pointer, with: value) }
            } else {
                try json.remove(at: step.pointer)
            }
            return true
        } catch {
            return false
        }
    }

    /// The step re-encoding the element `key` of the dictionary under
    /// `collection` into the mirror's object; `nil` when the collection is not a
    /// mapped, `String`-keyed dictionary and must be re-encoded whole.
    private func elementStep(_ key: AnyHashable, of collection: AnyKeyPath, in state: App.State) -> MirrorStep? {
        guard let pointer = App.jsonPointer(for: collection), let name = key.base as? String,
              case .object(let members) = json[pointer], let keyed = state[keyPath: collection] as? any KeyedCollection,
              let element = Self.element(key, of: keyed)
        else { return nil }
        let member = pointer.appending(name)
        let previous = members[name]
        guard let value = element else {
            let growth = previous.map {
                JSONValue.containerBytes(members.count - 1) - JSONValue.containerBytes(members.count) - JSONValue.memberBytes(name, $0)
            }
            return MirrorStep(pointer: member, value: nil, adds: true, growth: growth ?? 0)
        }
        // An unencodable element: the caller re-encodes more, which reports the error.
        guard let part = value as? any Encodable, let encoded = try? encoder.encode(part) else { return nil }
        guard let previous else {
            let growth = JSONValue.containerBytes(members.count + 1) - JSONValue.containerBytes(members.count)
                + JSONValue.memberBytes(name, encoded)
            return MirrorStep(pointer: member, value: encoded, adds: true, growth: growth)
        }
        let shared = encoded.sharingStorage(with: previous)
        return MirrorStep(pointer: member, value: shared, adds: true, growth: shared.estimatedJSONBytesGrowth(from: previous))
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
        change.cost += MirrorDelta.width(container) + MirrorDelta.width(value)
        for token in pointer.tokens.dropLast() {
            guard let child = container[token] else { break }
            change.cost += MirrorDelta.width(child)
            container = child
        }
        change.paths?.append(pointer)
    }

    /// The step re-encoding the value under `keyPath`; `nil` when that is
    /// not possible and a full encode is needed.
    private func replacement(of keyPath: AnyKeyPath, in state: App.State) -> MirrorStep? {
        // A path the mirror lacks (or an unencodable part) means the mapping
        // does not describe this state: the caller falls back to a full
        // encode, which reports the encoding error if there is one.
        guard let pointer = App.jsonPointer(for: keyPath),
              let part = state[keyPath: keyPath] as? any Encodable,
              let value = try? encoder.encode(part),
              let previous = json[pointer]
        else { return nil }
        let shared = value.sharingStorage(with: previous)
        return MirrorStep(pointer: pointer, value: shared, adds: false, growth: shared.estimatedJSONBytesGrowth(from: previous))
    }

    /// Re-encodes the whole state, unless it would grow above `limit` (then `false`, nothing changed).
    private mutating func encodeAll(_ state: App.State, limit: Int) throws(SyncEngineError) -> Bool {
        let encoded: JSONValue
        do {
            encoded = try state as? JSONValue ?? encoder.encode(state).sharingStorage(with: json)
        } catch {
            throw .unencodableState(reason: "\(error)")
        }
        let growth = encoded.estimatedJSONBytesGrowth(from: json)
        guard Self.fits(growth, on: estimatedBytes, limit: limit) else { return false }
        fullEncodes += 1
        json = encoded
        estimatedBytes += growth
        change.merge(.whole(json))
        return true
    }
}
