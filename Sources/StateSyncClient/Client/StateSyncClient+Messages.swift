import NIOCore
import StateSyncCore
import StateSyncProtocol
import WebSocket

extension StateSyncClient {
    /// Handles one message from the server.
    func receive(_ message: WebSocketMessage) {
        let decoded: ServerMessage
        do {
            decoded = try MessageDecoder().decodeServerMessage(message.data.readableBytesView)
        } catch {
            // A server that speaks something else: drop the connection and let
            // the reconnect loop report it rather than guess at the mirror.
            connection?.outbound.close(code: .protocolError, reason: "unreadable server message: \(error.code)", promise: nil)
            return
        }
        handle(decoded)
        showPredictions(after: decoded)
    }

    /// Applies a decoded server message to the mirror and the waiting callers.
    /// The mirror changes before ``ClientStatus/rev`` does, so an observer of
    /// the revision finds the mirror at least as new.
    func handle(_ message: ServerMessage) {
        switch message {
        case .welcome, .unsubscribed:
            break
        case .snapshot(let id, let rev, let value):
            apply(subscriptions.snapshot(wireID: id, rev: rev, value: value), rev: rev)
            heard(rev: rev)
        case .patch(let id, let base, let rev, let ops):
            apply(subscriptions.patch(wireID: id, base: base, rev: rev, ops: ops), rev: rev)
            heard(rev: rev)
        case .value(let id, let rev, let value):
            heard(rev: rev)
            pending.takeRead(id)?.continuation.resume(returning: (rev, value))
        case .ack(let id, let rev):
            heard(rev: rev)
            takeDispatch(id)?.continuation?.resume(returning: rev)
        case .reject(let id, let code, let message):
            takeDispatch(id)?.continuation?.resume(throwing: DispatchRejection(code: code, message: message, actionID: id))
        case .error(let id, let code, let message):
            guard let id else { return }   // not about one request (e.g. rate_limited): nothing to fail
            fail(requestID: id, code: code, message: message)
        }
    }

    /// Writes a subscription's new value (of revision `rev`) into the
    /// mirror, or re-subscribes.
    private func apply(_ outcome: MirrorSubscriptions.Outcome, rev: UInt64) {
        switch outcome {
        case .write(let path, let value):
            let nested = subscriptions.nested(in: path)
            writeMirror(at: path, rev: rev) { document in
                document.setMirrored(value, at: path)
                for record in nested { document.setMirrored(record.value, at: record.path) }
            }
            pending.synced(path)
        case .resubscribe(let path):
            sendSubscribe(path)
        case .ignore:
            break
        }
    }

    /// Changes the mirror's document at `path` with `update`, then publishes
    /// it to the mirror's observers and the ``changes(at:)`` sequences.
    func writeMirror(at path: JSONPointer, rev: UInt64, _ update: (inout JSONValue) -> Void) {
        update(&document)
        let document = document
        mirror.performStateUpdate { $0 = document }
        changeFeeds.changed(at: path, rev: rev, document: document)
        // Optimistic mirrors hold the whole state: the revision is the root subscription's.
        if let rootRev = subscriptions[.root]?.rev {
            for sink in liveOptimisticSinks { sink.confirm(document: document, rev: rootRev) }
        }
    }

    /// Fails the dispatch, read or subscription `id` with the server's error.
    private func fail(requestID id: String, code: ErrorCode, message: String) {
        if let dispatch = takeDispatch(id) {
            dispatch.continuation?.resume(throwing: StateSyncClientError.server(code: code, message: message, path: nil))
        } else if let read = pending.takeRead(id) {
            read.continuation.resume(throwing: StateSyncClientError.server(code: code, message: message, path: "\(read.path)"))
        } else if let path = subscriptions.path(forWireID: id) {
            _ = subscriptions.remove(path)
            pending.failSync(path, with: StateSyncClientError.server(code: code, message: message, path: "\(path)"))
        }
    }

    /// Subscribes `path` under a new wire id (resuming with `since` when the
    /// mirror holds a revision of it), ending the previous id on the server.
    func sendSubscribe(_ path: JSONPointer) {
        let id = makeWireID("s")
        let (since, replaced) = subscriptions.subscribe(path, wireID: id)
        guard let connection else { return }   // sent when the connection is back
        if let replaced { send(.unsubscribe(id: replaced), on: connection) }
        send(.subscribe(id: id, path: path, since: since), on: connection)
    }
}
