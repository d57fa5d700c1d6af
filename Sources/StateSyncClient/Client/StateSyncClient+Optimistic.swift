public import StateSyncCore
import StateSyncProtocol

extension StateSyncClient {
    /// An optimistic mirror of the whole state of `app` (``OptimisticMirror``):
    /// with `optimistic` `true`, this client's dispatches show at once,
    /// predicted with `App.reducer`, and are rebased on the server's patches
    /// until answered; with `false` it shows the confirmed state only (a
    /// ``TypedMirror`` with the same API). Subscribes to `""` and returns once
    /// its snapshot is in. Dispatches made earlier and still pending (from
    /// the outbox too) are predicted from the start, except those already
    /// sent: the snapshot may hold them, so they show once answered.
    ///
    /// ```swift
    /// let board = try await client.mirror(Board.self, optimistic: true)
    /// for await todos in board.observe(\.todos) { render(todos) }
    /// ```
    ///
    /// - Throws: ``StateSyncClientError/server(code:message:path:)``
    ///   `forbidden` when this role may not read the whole state;
    ///   ``StateSyncClientError/decodingFailed(path:type:reason:)`` when it
    ///   does not decode as `App.State`.
    public func mirror<App: StateSyncApp>(_ app: App.Type, optimistic: Bool) async throws -> OptimisticMirror<App> {
        try await subscribe(JSONPointer.root)
        let rev = subscriptions[.root]?.rev ?? status.rev
        let restored = pending.dispatchesInOrder.map { (id: $0.id, action: $0.action) }
        // Online, the earlier ones were sent again already: in doubt until answered.
        let doubtful = connection == nil ? [] : everSent
        let mirror = try OptimisticMirror<App>(
            client: self, predicts: optimistic, document: document, rev: rev, restored: restored, doubtful: doubtful)
        optimisticSinks.removeAll { $0.sink == nil }
        optimisticSinks.append(WeakOptimisticSink(sink: mirror))
        return mirror
    }

    /// The optimistic mirrors still in use.
    var liveOptimisticSinks: [any OptimisticSink] {
        optimisticSinks.compactMap(\.sink)
    }

    /// Removes dispatch `id` once answered: from the requests, the optimistic
    /// mirrors' queues and the outbox file.
    func takeDispatch(_ id: String) -> PendingRequests.Dispatch? {
        sentDispatches.remove(id)
        everSent.remove(id)
        guard let dispatch = pending.takeDispatch(id) else { return nil }
        for sink in liveOptimisticSinks { sink.settle(id: id) }
        if let outboxFile {
            let entries = pending.dispatchesInOrder.map { OutboxFile.Entry(id: $0.id, action: $0.action) }
            // A file that could not be rewritten still lists this answered
            // dispatch: a restart sends it again, and the server answers it
            // from its exactly-once outcomes without applying it twice.
            try? outboxFile.save(OutboxFile.Contents(clientID: clientID, dispatches: entries))
        }
        return dispatch
    }

    /// Shows the optimistic mirrors' new predictions after `message`. A
    /// snapshot or patch that arrives while this client's dispatches are in
    /// flight may already hold one of them, whose ack the server sends right
    /// after it: showing the rebase before that ack would show the action
    /// twice (once confirmed, once pending). So it is shown with the next
    /// message, or after ``predictionGraceDelay`` when none comes.
    func showPredictions(after message: ServerMessage) {
        guard !optimisticSinks.isEmpty else { return }
        switch message {
        case .snapshot, .patch:
            guard sentDispatches.isEmpty else {
                if predictionGrace == nil {
                    predictionGrace = Task { [weak self] in
                        try? await Task.sleep(for: Self.predictionGraceDelay)   // cancelled: the next message showed it
                        guard !Task.isCancelled else { return }
                        await self?.publishPredictions()
                    }
                }
                return
            }
        default:
            break
        }
        publishPredictions()
    }

    /// How long a patch's rebase waits for the answer that may follow it: 50 ms.
    static var predictionGraceDelay: Duration { .milliseconds(50) }

    /// Shows every optimistic mirror's prediction now.
    func publishPredictions() {
        predictionGrace?.cancel()
        predictionGrace = nil
        for sink in liveOptimisticSinks { sink.publish() }
    }
}
