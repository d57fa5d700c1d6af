import StateSyncCore
import StateSyncProtocol

extension StateSyncClient {
    /// Restores `store` on a new connection. `main`'s epoch came with the welcome; another store with a mirrored
    /// revision first probes its epoch (a `get` inside its shortest subscription) and resumes on the answer.
    /// Its dispatches wait too, so they stay in order and an optimistic mirror never shows an ack before its patch.
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

    /// Takes the answer to `store`'s epoch probe (`false` when `id` is not it): a changed or unknown epoch drops
    /// the store's revisions, so its subscriptions restart from snapshots; then the store resumes.
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

    /// The path the epoch probe reads: a child `-` (normally absent) of the shortest synced subscription, which
    /// this role may read; `nil` when nothing is synced (no revision to resume from).
    private static func probePath(_ subscriptions: MirrorSubscriptions) -> JSONPointer? {
        let synced = subscriptions.records.values.filter(\.isSynced)
        guard let shortest = synced.min(by: { $0.path.tokens.count < $1.path.tokens.count }) else { return nil }
        return JSONPointer(tokens: shortest.path.tokens + ["-"])
    }
}
