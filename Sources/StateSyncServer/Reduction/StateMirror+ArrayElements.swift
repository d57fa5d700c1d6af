import StateSyncCore

extension StateMirror {
    /// The step re-encoding the element `key` of the id-keyed array under
    /// `collection` (an ``IdentifiedArray`` whose key path
    /// ``StateSyncApp/jsonPointer(for:)`` maps to a JSON array) into the
    /// mirror's array, when the footprint names that array `alone` (then
    /// the element counts below describe this one change):
    /// - the state has the element and as many elements as the mirror: the
    ///   element changed in place and replaces the mirror's element at its
    ///   position (whose `id` member must be the key);
    /// - the state has the element and one more element: it was inserted
    ///   at its position;
    /// - the state lacks it and has one element fewer: the mirror's element
    ///   whose `id` member is the key is removed.
    ///
    /// `nil` otherwise, and the whole array is re-encoded: the collection
    /// is not such an array, the counts say more than one element changed,
    /// or the elements do not encode their id as an `id` member.
    ///
    /// Finding the element costs a search by id (an append is found at
    /// once; for any other change the reducer searched as far), a removed
    /// one a search of the mirror's array from the end; encoding costs the
    /// one element.
    func arrayElementStep(_ key: AnyHashable, of collection: AnyKeyPath, in state: App.State, alone: Bool) -> MirrorStep? {
        guard alone, let pointer = App.jsonPointer(for: collection),
              case .array(let mirrored) = json[pointer],
              let array = state[keyPath: collection] as? any IdentifiedArray,
              let id = key.base as? any Encodable, let encodedID = try? encoder.encode(id)
        else { return nil }
        guard let position = array.position(ofID: key) else {
            guard array.count == mirrored.count - 1, let removed = mirrored.lastIndex(where: { $0["id"] == encodedID }) else {
                return nil
            }
            let growth = JSONValue.containerBytes(array.count) - JSONValue.containerBytes(mirrored.count)
                - mirrored[removed].estimatedJSONBytes()
            return MirrorStep(pointer: pointer.appending(index: removed), value: nil, adds: false, growth: growth)
        }
        // An unencodable element: the caller re-encodes more, which reports the error.
        guard let encoded = try? encoder.encode(array.encodable(at: position)) else { return nil }
        let element = pointer.appending(index: position)
        switch array.count - mirrored.count {
        case 0:
            let previous = mirrored[position]
            guard previous["id"] == encodedID else { return nil }
            let shared = encoded.sharingStorage(with: previous)
            return MirrorStep(pointer: element, value: shared, adds: false, growth: shared.estimatedJSONBytesGrowth(from: previous))
        case 1:
            let growth = JSONValue.containerBytes(array.count) - JSONValue.containerBytes(mirrored.count)
                + encoded.estimatedJSONBytes()
            return MirrorStep(pointer: element, value: encoded, adds: true, growth: growth)
        default:
            return nil
        }
    }
}
