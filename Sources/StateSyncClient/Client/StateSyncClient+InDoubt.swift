import StateSyncProtocol

extension StateSyncClient {
    /// Takes a `reject` of dispatch `id` that is not its outcome: an
    /// `unavailable` refusal of a dispatch in doubt (sent on a connection
    /// that ended unanswered, or restored from the outbox). The refusal says
    /// only that this send was not applied, while the earlier one may have
    /// been; so the dispatch stays pending and is sent again after a backoff
    /// (the reconnect policy's), until an `ack` or another `reject` decides
    /// it. `false` when the rejection is the dispatch's outcome.
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
