import StateSyncCore
import Synchronization

/// The sequences of ``StateSyncClient/changes(at:)``: each one's path, last value and continuation. Guarded by
/// a mutex, not the actor, so a consumer ending its sequence unregisters it from any thread without a task.
final class ChangeFeeds: Sendable {
    private struct Feed {
        let pointer: JSONPointer
        var last: JSONValue
        let continuation: AsyncStream<MirrorChange>.Continuation
    }

    private struct Feeds {
        var nextID: UInt64 = 0
        var byID: [UInt64: Feed] = [:]
    }

    private let feeds = Mutex(Feeds())

    /// A new sequence for `pointer`, starting with `current` at `rev`.
    func add(_ pointer: JSONPointer, current: JSONValue, rev: UInt64) -> AsyncStream<MirrorChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: MirrorChange.self)
        continuation.yield(MirrorChange(rev: rev, value: current))
        let id = feeds.withLock { feeds in
            feeds.nextID += 1
            feeds.byID[feeds.nextID] = Feed(pointer: pointer, last: current, continuation: continuation)
            return feeds.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.feeds.withLock { _ = $0.byID.removeValue(forKey: id) }
        }
        return stream
    }

    /// Tells the feeds at, inside or around `path` that `document` changed
    /// there at `rev`; each one whose value differs gets the change.
    func changed(at path: JSONPointer, rev: UInt64, document: JSONValue) {
        feeds.withLock { feeds in
            for (id, feed) in feeds.byID where feed.pointer.isPrefix(of: path) || path.isPrefix(of: feed.pointer) {
                let value = document[feed.pointer] ?? nil
                guard value != feed.last else { continue }
                feeds.byID[id]?.last = value
                feed.continuation.yield(MirrorChange(rev: rev, value: value))
            }
        }
    }

    /// Ends every sequence (the client has closed).
    func finishAll() {
        let ended = feeds.withLock { feeds in
            defer { feeds.byID = [:] }
            return Array(feeds.byID.values)
        }
        for feed in ended { feed.continuation.finish() }
    }
}
