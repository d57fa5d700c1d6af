import StateSyncCore
import StateSyncProtocol

extension StateSyncClient {
    /// Restores `store` on a new connection. `main`'s epoch came with the
    /// welcome, so its subscriptions resume at once. Another store's epoch
    /// comes only with its snapshots and values, and a resumed `patch` does
    /// not carry it: so a store with a mirrored revision first reads a path
    /// inside its shortest subscription (a `get` of a child that is
    /// normally absent, answered `null`) to learn its epoch, and resumes when
    /// the answer comes (``epochProbeAnswered(_:epoch:in:)``). Its
    /// dispatches wait with it, so that they stay in order and an
    /// optimistic mirror never shows an ack before the patch it covers.
    func resume(_ store: StoreState) {
        if !store.name.isMain, store.epoch != nil, let probe = Self.probePath(store.subscriptions) {
            let id = makeWireID("e")
            store.epochProbe = id
            send(.get(id: id, path: probe), in: store)
            return
        }
        resubscribe(store)
    }

    /// Subscribes every path of `store` again (with `since` while it holds
    /// a revision of it) and sends its unanswered dispatches.
    private func resubscribe(_ store: StoreState) {
        for path in store.subscriptions.records.keys.sorted(by: { $0.tokens.count < $1.tokens.count }) {
            sendSubscribe(path, in: store)
        }
        if !store.everSent.isEmpty {
            for sink in store.liveOptimisticSinks { sink.doubt(ids: store.everSent) }
        }
        flushDispatches(store)
    }

    /// Takes the answer to `store`'s epoch probe, if `id` is it: a changed
    /// (or unknown, `epoch` `nil` after an error) epoch drops the store's
    /// revisions, so each of its subscriptions starts again from a snapshot;
    /// then the store resumes. `false` when `id` is not the probe.
    func epochProbeAnswered(_ id: String, epoch: String?, in store: StoreState) -> Bool {
        guard store.epochProbe == id else { return false }
        store.epochProbe = nil
        if epoch == nil || epoch != store.epoch {
            store.subscriptions.connectionEnded(newEpoch: true)
        }
        store.epoch = epoch ?? store.epoch
        resubscribe(store)
        return true
    }

    /// The path the epoch probe reads: a child `-` (an array's "past the
    /// end", rarely an object's key) of the store's shortest synced
    /// subscription, which this role may read; `nil` when nothing is synced
    /// (no revision to resume from, so no epoch to check).
    private static func probePath(_ subscriptions: MirrorSubscriptions) -> JSONPointer? {
        let synced = subscriptions.records.values.filter(\.isSynced)
        guard let shortest = synced.min(by: { $0.path.tokens.count < $1.path.tokens.count }) else { return nil }
        return JSONPointer(tokens: shortest.path.tokens + ["-"])
    }
}
