import CoreMetrics
import Logging
import StateSyncCore
import StateSyncProtocol

extension Publication {
    /// Opens (or replaces) subscription `id`: a `patch` from `since` when the
    /// history window still holds it, otherwise a `snapshot`, both at the
    /// latest published revision.
    mutating func subscribe(sessionID: String, id: String, path: JSONPointer, since: UInt64?) {
        guard var session = sessions[sessionID] else { return }
        let key = SubscriberKey(sessionID: sessionID, id: id)
        if let old = session.subscriptions[id] {
            trie.remove(key, at: old)
        }
        session.subscriptions[id] = path
        let writable = slowConsumers.admits(&session)
        sessions[sessionID] = session
        if !writable {
            // Nothing is sent now; the drain answers with a snapshot (a patch
            // could be empty, and a subscription must get an answer).
            trie.insert(key, at: path, base: Self.needsSnapshot)
            return
        }
        let resumeBase = since.flatMap { $0 <= revision && history.state(at: $0) != nil ? $0 : nil }
        trie.insert(key, at: path, base: revision)
        guard let position = sessions.index(forKey: sessionID),
              let message = catchUp(id: id, path: path, from: resumeBase, evenIfUnchanged: true)
        else { return }
        send(message, at: position)
    }

    /// Ends subscription `id` and confirms with `unsubscribed`.
    mutating func unsubscribe(sessionID: String, id: String) {
        guard var session = sessions[sessionID] else { return }
        if let path = session.subscriptions.removeValue(forKey: id) {
            trie.remove(SubscriberKey(sessionID: sessionID, id: id), at: path)
            sessions[sessionID] = session
        }
        deliver(encoder.encode(.unsubscribed(id: id)), to: sessionID)
    }

    /// A slow consumer drained: one coalesced patch (or snapshot) per changed
    /// subscription, then the held answers, in order. Stops early when a large
    /// value goes to the ``AnswerEncoder``; its drain continues from there.
    mutating func drained(_ sessionID: String) {
        guard let position = sessions.index(forKey: sessionID), sessions.values[position].isSlow,
              !sessions.values[position].isAbandoned
        else { return }
        sessions.values[position].isSlow = false
        let watch = slowConsumers
        // After a large answer the sink may still be full: wait for it again.
        guard watch.admits(&sessions.values[position]) else { return }
        for (id, path) in sessions.values[position].subscriptions {
            let key = SubscriberKey(sessionID: sessionID, id: id)
            guard let node = trie.node(at: path), let base = node.subscribers[key], base != revision,
                  let message = catchUp(id: id, path: path, from: base, evenIfUnchanged: false)
            else { continue }
            node.subscribers[key] = revision
            guard send(message, at: position) else { return }
        }
        sendDeferred(at: position)
    }

    /// The base of a subscription that must start over with a snapshot.
    static var needsSnapshot: UInt64 { .max }

    /// The message bringing subscription `id` to the published revision: a patch
    /// from `base` if the window holds it, else a snapshot; `nil` when unchanged
    /// and not `evenIfUnchanged`.
    private func catchUp(id: String, path: JSONPointer, from base: UInt64?, evenIfUnchanged: Bool) -> Outgoing? {
        let value = state[path] ?? .null
        guard let base, let old = history.state(at: base) else {
            metrics.snapshotsSent.increment()
            return .whole(.snapshot(id: id, rev: revision, value: value), value)
        }
        let ops = JSONPatch.diff(from: old[path] ?? .null, to: value)
        if ops.isEmpty, !evenIfUnchanged { return nil }
        metrics.patchesSent.increment()
        return .encoded(encoder.encode(.patch(id: id, base: base, rev: revision, ops: ops)))
    }

    /// The joined sessions for devtools, in id order.
    func summaries() -> [SessionSummary] {
        sessions.values.sorted { $0.info.id < $1.info.id }.map { record in
            SessionSummary(
                id: record.info.id, name: record.info.name, clientID: record.clientID, role: record.role,
                subscriptions: record.subscriptions.sorted { $0.key < $1.key }
                    .map { SessionSummary.Subscription(id: $0.key, path: $0.value.description) },
                isSlow: record.isSlow, deferredAnswers: record.deferred.count)
        }
    }
}
