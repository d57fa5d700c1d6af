import Logging
import Synchronization
import StateSyncCore
import StateSyncProtocol

extension Sequencer {
    /// Makes a durable batch visible: patches to the subscriptions whose
    /// slice changed, then the batch's acks and rejects, then the history.
    func publish(_ batch: PendingBatch) {
        if let last = batch.state {
            let old = published
            published = last
            publishedRevision += UInt64(batch.revisions)
            history.append(last, at: publishedRevision, cost: batch.change.cost)
            shared.publishedRevision.store(publishedRevision, ordering: .releasing)
            fanOut(from: old, to: last, rev: publishedRevision, changed: batch.change.paths)
        }
        let now = ContinuousClock.now
        for answer in batch.answers {
            let message: [UInt8]
            switch answer.outcome {
            case .accepted(let revision):
                message = encoder.encode(.ack(id: answer.actionID, rev: revision))
                if !answer.isDuplicate { stats.acceptedActions += 1 }
            case let .rejected(code, text):
                message = encoder.encode(.reject(id: answer.actionID, code: RejectCode(rawValue: code), message: text))
                if !answer.isDuplicate { stats.rejectedActions += 1 }
            }
            if answer.isDuplicate { stats.duplicateDispatches += 1 }
            let elapsed = now - answer.received
            configuration.answerLatencyObserver?(elapsed)
            let nanoseconds = UInt64(max(0, elapsed.components.seconds)) * 1_000_000_000
                + UInt64(max(0, elapsed.components.attoseconds / 1_000_000_000))
            stats.dispatchToAnswerNanoseconds += nanoseconds
            stats.maxDispatchToAnswerNanoseconds = max(stats.maxDispatchToAnswerNanoseconds, nanoseconds)
            deliver(message, to: answer.sessionID)
        }
    }

    /// Sends one patch per subscription whose slice differs between `old`
    /// and `new`. Only subscriptions at, above or below a changed path are
    /// visited; subscriptions of one path share one focused diff and one
    /// serialized ops array, and those with the same id and base share the
    /// very same bytes. `paths` are where the mirror changed (then the whole
    /// state need not be diffed to find them: a counter among 10,000 costs
    /// one counter); `nil` means unknown.
    private func fanOut(from old: JSONValue, to new: JSONValue, rev: UInt64, changed paths: [JSONPointer]?) {
        let changed = paths.map { $0.map(Self.arrayWidened) }
            ?? JSONPatch.diff(from: old, to: new).operations.flatMap(Self.changedRegions)
        for node in trie.affected(by: changed) {
            let ops = JSONPatch.diff(from: old, to: new, at: node.pointer)
            guard !ops.isEmpty else { continue }
            let frames = PatchFrames(rev: rev, ops: ops)
            stats.patchBytesProduced += UInt64(frames.sharedByteCount)
            var shared: [FrameKey: [UInt8]] = [:]
            var subscribers = node.subscribers
            node.subscribers = [:]
            for index in subscribers.indices {
                let (key, base) = subscribers[index]
                // In place: copying the record would retain all its fields once per subscriber.
                guard let position = sessions.index(forKey: key.sessionID), isWritable(&sessions.values[position]) else {
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
                stats.patchesSent += 1
                stats.patchBytesSent += UInt64(bytes.count)
                subscribers.values[index] = rev
            }
            node.subscribers = subscribers
        }
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

    /// Saves a snapshot when ``SyncEngineConfiguration/snapshotEvery``
    /// revisions have passed since the last one.
    func snapshotIfDue() async {
        guard publishedRevision - lastSnapshotRevision >= configuration.snapshotEvery else { return }
        await saveSnapshot()
    }

    /// Saves the published state as a snapshot (a failure is logged: the
    /// journal still holds every entry, recovery just replays more).
    func saveSnapshot() async {
        guard publishedRevision > lastSnapshotRevision else { return }
        let bytes = JSONSerializer().serialize(published)
        do {
            try await journal.saveSnapshot(JournalSnapshot(revision: publishedRevision, state: bytes))
            lastSnapshotRevision = publishedRevision
            logger.debug("snapshot saved", metadata: ["rev": "\(publishedRevision)", "bytes": "\(bytes.count)"])
        } catch {
            logger.error("saving a snapshot failed", metadata: ["rev": "\(publishedRevision)", "error": "\(error)"])
        }
    }
}

/// The bytes of a patch frame depend only on the subscription id and base
/// (the path's ops and rev are shared).
private struct FrameKey: Hashable {
    var id: String
    var base: UInt64
}
