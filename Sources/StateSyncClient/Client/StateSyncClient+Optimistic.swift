public import StateSyncCore
import Foundation
import StateSyncProtocol

extension StateSyncClient {
    /// A mirror of the whole state of `app` (``OptimisticMirror``): with `optimistic`, this client's dispatches
    /// show at once, predicted with `App.reducer`; with `false`, only the confirmed state. Returns once the snapshot
    /// of `""` is in; pending dispatches already sent show only once answered, since the snapshot may hold them.
    ///
    /// ```swift
    /// let board = try await client.mirror(Board.self, optimistic: true)
    /// for await todos in board.observe(\.todos) { render(todos) }
    /// ```
    ///
    /// - Throws: `forbidden` when this role may not read the whole state,
    ///   ``StateSyncClientError/decodingFailed(path:type:reason:)`` when it does not decode as `App.State`.
    public func mirror<App: StateSyncApp>(_ app: App.Type, optimistic: Bool) async throws -> OptimisticMirror<App> {
        try await mirror(app, optimistic: optimistic, in: .main)
    }

    /// An optimistic mirror of store `name` (see ``mirror(_:optimistic:)``).
    func mirror<App: StateSyncApp>(_ app: App.Type, optimistic: Bool, in name: StoreName) async throws -> OptimisticMirror<App> {
        try await subscribe(JSONPointer.root, in: name)
        let store = state(name)
        let rev = store.subscriptions[.root]?.rev ?? store.rev
        let restored = store.pending.dispatchesInOrder.map { (id: $0.id, action: $0.action) }
        // Online, the earlier ones were sent again already: in doubt until answered.
        let doubtful = connection == nil ? [] : store.everSent
        let state = try decode(store.document, as: App.State.self, path: "")
        var queue = OptimisticQueue<App>(confirmed: state, rev: rev, session: predictedSession, clientID: clientID)
        if optimistic {
            for (id, wire) in restored {
                if let action = try? App.Action(wireValue: wire) {   // one the app cannot read: the server answers it, unpredicted
                    queue.enqueue(id: id, action: action, at: Date())
                }
            }
            queue.doubt(ids: doubtful)
        }
        let observable = ObservableMirror(client: self, store: name, queue: queue, predicts: optimistic)
        store.optimisticSinks.removeAll { $0.sink == nil }
        store.optimisticSinks.append(WeakOptimisticSink(sink: observable))
        return OptimisticMirror(observable: observable)
    }

    /// The session actions are predicted as: this connection's id, and the
    /// name the server gives it (the configured one, else the session id).
    nonisolated var predictedSession: SessionInfo {
        let id = status.session ?? ""
        let name = configuration.name.flatMap { $0.isEmpty ? nil : $0 } ?? id
        return SessionInfo(id: id, name: name)
    }

    /// Removes dispatch `id` of `store` once answered: from the requests,
    /// the optimistic mirrors' queues and the outbox file.
    func takeDispatch(_ id: String, in store: StoreState) -> PendingRequests.Dispatch? {
        store.sentDispatches.remove(id)
        store.everSent.remove(id)
        store.inDoubt.remove(id)
        if store.inDoubt.isEmpty { store.inDoubtRounds = 0 }
        guard let dispatch = store.pending.takeDispatch(id) else { return nil }
        for sink in store.liveOptimisticSinks { sink.settle(id: id) }
        if let outboxFile {
            // A file that could not be rewritten still lists this answered
            // dispatch: a restart sends it again, and the server answers it
            // from its exactly-once outcomes without applying it twice.
            try? outboxFile.save(outboxContents())
        }
        return dispatch
    }

    /// The outbox file's contents: every store's unanswered dispatches, in
    /// order within each store, and `added`.
    func outboxContents(adding added: OutboxFile.Entry? = nil) -> OutboxFile.Contents {
        var entries: [OutboxFile.Entry] = []
        for store in stores.values.sorted(by: { $0.name < $1.name }) {
            entries += store.pending.dispatchesInOrder.map {
                OutboxFile.Entry(id: $0.id, action: $0.action, store: store.name, schemaVersion: $0.schemaVersion)
            }
        }
        if let added { entries.append(added) }
        return OutboxFile.Contents(clientID: clientID, dispatches: entries)
    }

    /// Shows the optimistic mirrors' new predictions after `message`. A snapshot or patch arriving while dispatches
    /// are in flight may hold one whose ack follows it, so it is shown with the next message (or after
    /// ``predictionGraceDelay``): otherwise the action would show twice.
    func showPredictions(after message: ServerMessage, in store: StoreState) {
        guard !store.optimisticSinks.isEmpty else { return }
        switch message {
        case .snapshot, .patch:
            guard store.sentDispatches.isEmpty else {
                if store.predictionGrace == nil {
                    let name = store.name
                    store.predictionGrace = Task { [weak self] in
                        try? await Task.sleep(for: Self.predictionGraceDelay)   // cancelled: the next message showed it
                        guard !Task.isCancelled else { return }
                        await self?.publishPredictions(in: name)
                    }
                }
                return
            }
        default:
            break
        }
        publishPredictions(in: store.name)
    }

    /// How long a patch's rebase waits for the answer that may follow it: 50 ms.
    static var predictionGraceDelay: Duration { .milliseconds(50) }

    /// Shows every optimistic mirror's prediction of store `name` now.
    func publishPredictions(in name: StoreName) {
        guard let store = stores[name] else { return }
        store.predictionGrace?.cancel()
        store.predictionGrace = nil
        for sink in store.liveOptimisticSinks { sink.publish() }
    }
}
