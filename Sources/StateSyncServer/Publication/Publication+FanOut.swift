import CoreMetrics
import Logging
import StateSyncCore
import StateSyncProtocol

extension Publication {
    /// Sends one patch per subscription whose slice differs between `old`
    /// and `new` (at ``revision``). Only subscriptions at, above or below a
    /// changed path are visited; subscriptions of one path share one focused
    /// diff and one serialized ops array, and those with the same id and
    /// base share the very same bytes. `paths` are where the mirror changed
    /// (then the whole state need not be diffed to find them: a counter
    /// among 10,000 costs one counter); `nil` means unknown.
    mutating func fanOut(from old: JSONValue, to new: JSONValue, changed paths: [JSONPointer]?) {
        let changed = paths.map { $0.map(Self.arrayWidened) }
            ?? JSONPatch.diff(from: old, to: new).operations.flatMap(Self.changedRegions)
        var patches = 0
        var bytesSent = 0
        var bytesBuilt = 0
        let watch = slowConsumers
        for node in trie.affected(by: changed) {
            let ops = JSONPatch.diff(from: old, to: new, at: node.pointer)
            guard !ops.isEmpty else { continue }
            let frames = PatchFrames(rev: revision, ops: ops)
            bytesBuilt += frames.sharedByteCount
            var shared: [FrameKey: [UInt8]] = [:]
            var subscribers = node.subscribers
            node.subscribers = [:]
            for index in subscribers.indices {
                let (key, base) = subscribers[index]
                // In place: copying the record would retain all its fields once per subscriber.
                guard let position = sessions.index(forKey: key.sessionID), watch.admits(&sessions.values[position]) else {
                    continue
                }
                let frameKey = FrameKey(id: key.id, base: base)
                let bytes: [UInt8]
                if let existing = shared[frameKey] {
                    bytes = existing
                } else {
                    bytes = frames.frame(id: key.id, base: base)
                    shared[frameKey] = bytes
                }
                sessions.values[position].sink.send(bytes)
                patches += 1
                bytesSent += bytes.count
                subscribers.values[index] = revision
            }
            node.subscribers = subscribers
        }
        // Once per batch: the fan-out loop touches no shared counter.
        metrics.patchesSent.increment(by: Int64(patches))
        metrics.bytesSent.increment(by: Int64(bytesSent))
        metrics.patchBytesBuilt.increment(by: Int64(bytesBuilt))
    }

    /// The region a root operation may have changed. An operation on an
    /// array element shifts its siblings, so it counts as a change of the
    /// whole array (subscriptions below it are then diffed, which costs
    /// O(1) for those whose slice is untouched).
    private static func changedRegions(_ operation: JSONPatchOperation) -> [JSONPointer] {
        switch operation {
        case .move(let from, let path), .copy(let from, let path):
            return [arrayWidened(from), arrayWidened(path)]
        default:
            return [arrayWidened(operation.path)]
        }
    }

    private static func arrayWidened(_ pointer: JSONPointer) -> JSONPointer {
        guard let last = pointer.lastToken, let parent = pointer.parent,
              last == "-" || (!last.isEmpty && last.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return pointer }
        return parent
    }
}

/// The bytes of a patch frame depend only on the subscription id and base
/// (the path's ops and rev are shared).
private struct FrameKey: Hashable {
    var id: String
    var base: UInt64
}
