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
    /// - the state has one element fewer: the element was removed, and so
    ///   is the mirror's element whose `id` member is the key.
    ///
    /// `nil` otherwise, and the whole array is re-encoded: the collection
    /// is not such an array, the counts say more than one element changed,
    /// the element is not where the counts say, or the elements do not
    /// encode their id as an `id` member. An element that does not encode
    /// also gives `nil`: the caller re-encodes more, which reports the error.
    ///
    /// Finding the element costs a search by id (an append is found at
    /// once; for a change in place the reducer searched as far), a removed
    /// one a search of the mirror's array from the end; encoding costs the
    /// one element.
    func arrayElementStep(_ key: AnyHashable, of collection: AnyKeyPath, in state: App.State, alone: Bool) -> MirrorStep? {
        guard alone, let pointer = App.jsonPointer(for: collection),
              case .array(let mirrored) = json[pointer],
              let array = state[keyPath: collection] as? any IdentifiedArray
        else { return nil }
        // The id as the mirror holds it, to find or check the element there
        // (an appended element needs no check).
        var encodedID: JSONValue? {
            guard let id = key.base as? any Encodable else { return nil }
            return try? encoder.encode(id)
        }
        switch array.count - mirrored.count {
        case -1:
            // One element fewer: the footprint's element is the one removed.
            guard let encodedID, let removed = mirrored.lastIndex(where: { $0["id"] == encodedID }) else { return nil }
            let growth = JSONValue.containerBytes(array.count) - JSONValue.containerBytes(mirrored.count)
                - mirrored[removed].estimatedJSONBytes()
            return MirrorStep(pointer: pointer.appending(index: removed), value: nil, adds: false, growth: growth)
        case 0:
            guard let position = array.position(ofID: key), let encodedID, mirrored[position]["id"] == encodedID,
                  let encoded = try? encoder.encode(array.encodable(at: position))
            else { return nil }
            let shared = encoded.sharingStorage(with: mirrored[position])
            let growth = shared.estimatedJSONBytesGrowth(from: mirrored[position])
            return MirrorStep(pointer: pointer.appending(index: position), value: shared, adds: false, growth: growth)
        case 1:
            guard let position = array.position(ofID: key), let encoded = try? encoder.encode(array.encodable(at: position)) else {
                return nil
            }
            let growth = JSONValue.containerBytes(array.count) - JSONValue.containerBytes(mirrored.count)
                + encoded.estimatedJSONBytes()
            return MirrorStep(pointer: pointer.appending(index: position), value: encoded, adds: true, growth: growth)
        default:
            return nil
        }
    }
}
