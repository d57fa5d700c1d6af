import StateSyncCore

extension StateMirror {
    /// The step re-encoding element `key` of the id-keyed array under `collection`
    /// when the footprint names that array `alone` (the counts tell change,
    /// insert or removal); `nil` otherwise, and the whole array is re-encoded.
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
