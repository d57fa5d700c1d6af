import NIOCore
import StateSyncCore
import StateSyncProtocol
import WebSocket

extension StateSyncClient {
    /// Handles one message from the server.
    func receive(_ message: WebSocketMessage) {
        let decoded: StoreScopedServerMessage
        do {
            decoded = try MessageDecoder().decodeStoreScopedServerMessage(message.data.readableBytesView)
        } catch {
            // A server that speaks something else: drop the connection and let
            // the reconnect loop report it rather than guess at the mirror.
            connection?.outbound.close(code: .protocolError, reason: "unreadable server message: \(error.code)", promise: nil)
            return
        }
        // A store this client never used has nothing waiting for the message.
        guard let store = stores[decoded.store] else { return }
        handle(decoded.message, epoch: decoded.epoch, in: store)
        showPredictions(after: decoded.message, in: store)
    }

    /// Applies a server message about `store` (with `epoch` for another store's snapshot or value) to its mirror and
    /// waiting callers. The mirror changes before the revision, so an observer of the revision finds it as new.
    func handle(_ message: ServerMessage, epoch: String? = nil, in store: StoreState) {
        switch message {
        case .welcome, .unsubscribed:
            break
        case .snapshot(let id, let rev, let value):
            learn(epoch, in: store)
            apply(store.subscriptions.snapshot(wireID: id, rev: rev, value: value), rev: rev, in: store) { path in
                [.replace(path: path, value: value)]
            }
            heard(rev: rev, in: store)
        case .patch(let id, let base, let rev, let ops):
            apply(store.subscriptions.patch(wireID: id, base: base, rev: rev, ops: ops), rev: rev, in: store) { path in
                path.isRoot ? ops.operations : ops.operations.map { $0.under(path) }
            }
            heard(rev: rev, in: store)
        case .value(let id, let rev, let value):
            if epochProbeAnswered(id, epoch: epoch, in: store) { return }
            learn(epoch, in: store)
            heard(rev: rev, in: store)
            store.pending.takeRead(id)?.continuation.resume(returning: (rev, value))
        case .ack(let id, let rev):
            heard(rev: rev, in: store)
            takeDispatch(id, in: store)?.continuation?.resume(returning: rev)
        case .reject(let id, let code, let message):
            if retriedInDoubt(id, code: code, in: store) { return }
            let rejection = DispatchRejection(code: code, message: message, actionID: id)
            if store.pending.dispatches[id] != nil {
                for sink in store.liveOptimisticSinks { sink.rejected(rejection) }
            }
            takeDispatch(id, in: store)?.continuation?.resume(throwing: rejection)
        case .authorized(let id, let role, _):
            authorized(id, role: role)
        case .error(_, .behind, _):
            // This node is behind what the client has seen (a failover to a
            // lagging node): drop the connection, so that the reconnect loop
            // resumes on the next node, rather than accept an older state.
            connection?.outbound.close(code: .goingAway, reason: "the server is behind this client's revision", promise: nil)
        case .error(let id, let code, let message):
            guard let id else { return }   // not about one request (e.g. rate_limited): nothing to fail
            if tokenRefused(id, code: code, message: message) { return }
            if epochProbeAnswered(id, epoch: nil, in: store) { return }
            fail(requestID: id, code: code, message: message, in: store)
        }
    }

    /// Records the epoch a snapshot or value of a store other than `main` carries.
    private func learn(_ epoch: String?, in store: StoreState) {
        if let epoch, !store.name.isMain { store.epoch = epoch }
    }

    /// Writes a subscription's new value (of revision `rev`) into `store`'s
    /// mirror, or re-subscribes. `changes` says, for the subscription's
    /// path, which operations made the value (absolute paths).
    private func apply(
        _ outcome: MirrorSubscriptions.Outcome, rev: UInt64, in store: StoreState, changes: (JSONPointer) -> [JSONPatchOperation]
    ) {
        switch outcome {
        case .write(let path, let value):
            let nested = store.subscriptions.nested(in: path)
            let written = changes(path) + nested.map { JSONPatchOperation.replace(path: $0.path, value: $0.value) }
            writeMirror(at: path, rev: rev, in: store, changes: written) { document in
                document.setMirrored(value, at: path)
                for record in nested { document.setMirrored(record.value, at: record.path) }
            }
            store.pending.synced(path)
        case .resubscribe(let path):
            sendSubscribe(path, in: store)
        case .ignore:
            break
        }
    }

    /// Changes `store`'s mirror document at `path` with `update` (which
    /// `changes` describe, for the optimistic mirrors' typed states), then
    /// publishes it to the mirror's observers and the ``changes(at:)`` sequences.
    func writeMirror(
        at path: JSONPointer, rev: UInt64, in store: StoreState, changes: [JSONPatchOperation], _ update: (inout JSONValue) -> Void
    ) {
        update(&store.document)
        let document = store.document
        store.mirror.performStateUpdate { $0 = document }
        store.changeFeeds.changed(at: path, rev: rev, document: document)
        // Optimistic mirrors hold the whole state: the revision is the root subscription's.
        if let rootRev = store.subscriptions[.root]?.rev {
            for sink in store.liveOptimisticSinks { sink.confirm(document: document, rev: rootRev, changes: changes) }
        }
    }

    /// Fails `store`'s dispatch, read or subscription `id` with the server's error.
    private func fail(requestID id: String, code: ErrorCode, message: String, in store: StoreState) {
        if let dispatch = takeDispatch(id, in: store) {
            dispatch.continuation?.resume(throwing: StateSyncClientError.server(code: code, message: message, path: nil))
        } else if let read = store.pending.takeRead(id) {
            read.continuation.resume(throwing: StateSyncClientError.server(code: code, message: message, path: "\(read.path)"))
        } else if let path = store.subscriptions.path(forWireID: id) {
            _ = store.subscriptions.remove(path)
            store.pending.failSync(path, with: StateSyncClientError.server(code: code, message: message, path: "\(path)"))
        }
    }

    /// Subscribes `path` of `store` under a new wire id (resuming with
    /// `since` when the mirror holds a revision of it), ending the previous
    /// id on the server.
    func sendSubscribe(_ path: JSONPointer, in store: StoreState) {
        let id = makeWireID("s")
        let (since, replaced) = store.subscriptions.subscribe(path, wireID: id)
        if let replaced { send(.unsubscribe(id: replaced), in: store) }
        send(.subscribe(id: id, path: path, since: since), in: store)
    }
}
