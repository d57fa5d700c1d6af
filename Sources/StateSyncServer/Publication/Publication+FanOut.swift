import CoreMetrics
import Logging
import StateSyncCore
import StateSyncProtocol

extension Publication {
    /// Starts the round of patches from `old` to `new`, then `answers`, visiting
    /// only subscriptions at, above or below a changed path. `paths` are where
    /// the mirror changed; `nil` means unknown.
    mutating func startFanOut(from old: JSONValue, to new: JSONValue, changed paths: [JSONPointer]?, answers: [DispatchAnswer]) {
        let changed = paths.map { $0.map(Self.arrayWidened) }
            ?? JSONPatch.diff(from: old, to: new).operations.flatMap(Self.changedRegions)
        round = FanOutRound(old: old, new: new, revision: revision, nodes: trie.affected(by: changed), answers: answers)
    }

    /// Sends the next patches of the round in progress, visiting at most
    /// `limit` subscriptions; returns whether the round is over (its
    /// answers sent, its metrics counted). `true` at once without a round.
    mutating func continuePublishing(limit: Int) -> Bool {
        guard var current = round else { return true }
        round = nil   // so that `current` is the only copy while it changes
        guard sendSlice(of: &current, limit: limit) else {
            round = current
            return false
        }
        // Once per round: the fan-out loop touches no shared counter.
        metrics.patchesSent.increment(by: Int64(current.patches))
        metrics.bytesSent.increment(by: Int64(current.bytesSent))
        metrics.patchBytesBuilt.increment(by: Int64(current.bytesBuilt))
        answer(current.answers)
        return true
    }

    /// Sends `round`'s patches until it is over (`true`) or `limit`
    /// subscriptions were visited.
    private mutating func sendSlice(of round: inout FanOutRound, limit: Int) -> Bool {
        var budget = limit
        let watch = slowConsumers
        while round.nodeIndex < round.nodes.count {
            let node = round.nodes[round.nodeIndex]
            if round.inNode == nil {
                let ops = JSONPatch.diff(from: round.old, to: round.new, at: node.pointer)
                guard !ops.isEmpty else {
                    round.nodeIndex += 1
                    continue
                }
                let frames = PatchFrames(rev: round.revision, ops: ops, store: encoder.store)
                round.bytesBuilt += frames.sharedByteCount
                round.inNode = NodeProgress(frames: frames, position: node.subscribers.startIndex)
            }
            var progress = round.inNode!
            round.inNode = nil
            var subscribers = node.subscribers
            node.subscribers = [:]
            var index = progress.position
            while index != subscribers.endIndex, budget > 0 {
                budget -= 1
                let (key, base) = subscribers[index]
                // In place: copying the record would retain all its fields once per subscriber.
                if let position = sessions.index(forKey: key.sessionID), watch.admits(&sessions.values[position]) {
                    let bytes = progress.frame(id: key.id, base: base)
                    sessions.values[position].sink.send(bytes)
                    round.patches += 1
                    round.bytesSent += bytes.count
                    subscribers.values[index] = round.revision
                }
                subscribers.formIndex(after: &index)
            }
            node.subscribers = subscribers
            guard index == subscribers.endIndex else {
                progress.position = index
                round.inNode = progress
                return false
            }
            round.nodeIndex += 1
        }
        return true
    }

    /// The region a root operation may have changed; an array element's
    /// operation shifts its siblings, so it counts as a change of the whole array.
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
