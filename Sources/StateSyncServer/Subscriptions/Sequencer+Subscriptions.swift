import Logging
import StateSyncCore
import StateSyncProtocol

extension Sequencer {
    /// Opens (or replaces) subscription `id`: a `patch` from `since` when the
    /// history window still holds it, otherwise a `snapshot`, both at the
    /// latest durable revision.
    func subscribe(sessionID: String, id: String, path: JSONPointer, since: UInt64?) {
        guard var session = sessions[sessionID] else { return }
        let key = SubscriberKey(sessionID: sessionID, id: id)
        if let old = session.subscriptions[id] {
            trie.remove(key, at: old)
        }
        session.subscriptions[id] = path
        let writable = isWritable(&session)
        sessions[sessionID] = session
        if !writable {
            // Nothing is sent now; the drain answers with a snapshot (a patch
            // could be empty, and a subscription must get an answer).
            trie.insert(key, at: path, base: Self.needsSnapshot)
            return
        }
        let resumeBase = since.flatMap { $0 <= publishedRevision && history.state(at: $0) != nil ? $0 : nil }
        trie.insert(key, at: path, base: publishedRevision)
        if let message = catchUp(id: id, path: path, from: resumeBase, evenIfUnchanged: true) {
            session.sink.send(message)
        }
    }

    /// Ends subscription `id` and confirms with `unsubscribed`.
    func unsubscribe(sessionID: String, id: String) {
        guard var session = sessions[sessionID] else { return }
        if let path = session.subscriptions.removeValue(forKey: id) {
            trie.remove(SubscriberKey(sessionID: sessionID, id: id), at: path)
            sessions[sessionID] = session
        }
        deliver(encoder.encode(.unsubscribed(id: id)), to: sessionID)
    }

    /// A slow consumer caught up: one coalesced patch (or a snapshot, when its
    /// base left the window) per subscription whose value changed since its
    /// base, then the answers held back, in order.
    func drained(_ sessionID: String) {
        guard var session = sessions[sessionID], session.isSlow else { return }
        session.isSlow = false
        let deferred = session.deferred
        session.deferred = []
        sessions[sessionID] = session
        for (id, path) in session.subscriptions {
            let key = SubscriberKey(sessionID: sessionID, id: id)
            guard let node = trie.node(at: path), let base = node.subscribers[key], base != publishedRevision else { continue }
            if let message = catchUp(id: id, path: path, from: base, evenIfUnchanged: false) {
                node.subscribers[key] = publishedRevision
                session.sink.send(message)
            }
        }
        for message in deferred {
            session.sink.send(message)
        }
    }

    /// Sends `message` to the session now, or holds it back while the
    /// session is slow (answers must follow the patches they depend on).
    func deliver(_ message: [UInt8], to sessionID: String) {
        guard var session = sessions[sessionID] else { return }
        if isWritable(&session) {
            session.sink.send(message)
        } else {
            session.deferred.append(message)
        }
        sessions[sessionID] = session
    }

    /// Whether `session` may be sent more now; marks it slow when its
    /// backlog went above the high-water mark.
    func isWritable(_ session: inout SessionRecord) -> Bool {
        if session.isSlow { return false }
        guard session.sink.bufferedBytes > configuration.outboundHighWaterMark else { return true }
        session.isSlow = true
        stats.slowConsumers += 1
        logger.debug("slow consumer", metadata: ["session": "\(session.info.id)", "buffered": "\(session.sink.bufferedBytes)"])
        return false
    }

    /// The base of a subscription that must start over with a snapshot.
    static var needsSnapshot: UInt64 { .max }

    /// The message bringing subscription `id` at `path` to the published
    /// revision: a patch from `base` when the window holds it, else a
    /// snapshot; `nil` when the value did not change since `base` and
    /// `evenIfUnchanged` is false.
    private func catchUp(id: String, path: JSONPointer, from base: UInt64?, evenIfUnchanged: Bool) -> [UInt8]? {
        let value = published[path] ?? .null
        guard let base, let old = history.state(at: base) else {
            stats.snapshotsSent += 1
            return encoder.encode(.snapshot(id: id, rev: publishedRevision, value: value))
        }
        let ops = JSONPatch.diff(from: old[path] ?? .null, to: value)
        if ops.isEmpty, !evenIfUnchanged { return nil }
        stats.patchesSent += 1
        return encoder.encode(.patch(id: id, base: base, rev: publishedRevision, ops: ops))
    }
}
