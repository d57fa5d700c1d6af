import StateSyncProtocol

extension StateSyncClient {
    /// Takes an `unavailable` reject of a dispatch in doubt (sent on a connection that ended, or from the outbox):
    /// it says only this send was not applied, so the dispatch stays pending and is re-sent after the reconnect
    /// policy's backoff until decided. `false` when the rejection is the dispatch's outcome.
    func retriedInDoubt(_ id: String, code: RejectCode, in store: StoreState) -> Bool {
        guard code == .unavailable, store.inDoubt.contains(id), store.pending.dispatches[id] != nil else { return false }
        store.sentDispatches.remove(id)
        guard store.inDoubtRetry == nil else { return true }   // the round already planned sends it too
        store.inDoubtRounds += 1
        let delay = configuration.reconnect.delay(forAttempt: store.inDoubtRounds)
        let name = store.name
        store.inDoubtRetry = Task { [weak self] in
            try? await Task.sleep(for: delay)   // cancelled when the client closes: nothing to send then
            guard !Task.isCancelled else { return }
            await self?.resendInDoubt(in: name)
        }
        return true
    }

    /// Sends store `name`'s refused in-doubt dispatches again, unless the
    /// store waits to resume (it sends them then) or the client is offline
    /// (the next connection sends them).
    private func resendInDoubt(in name: StoreName) {
        guard let store = stores[name] else { return }
        store.inDoubtRetry = nil
        if store.epochProbe == nil { flushDispatches(store) }
    }
}
