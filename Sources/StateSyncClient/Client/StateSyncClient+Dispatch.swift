public import StateSyncCore
import StateSyncProtocol

extension StateSyncClient {
    /// Sends `action` and returns the revision at which the server applied
    /// and durably stored it.
    ///
    /// Patches of the client's subscriptions up to that revision are in the
    /// mirror when this returns (the server sends them before the ack). While
    /// offline the action waits; after a reconnect every unanswered action is
    /// sent again with its original id, and the server's de-duplication makes
    /// it apply exactly once.
    ///
    /// ```swift
    /// let rev = try await client.dispatch(["type": "addTodo", "title": "Milk"])
    /// ```
    ///
    /// The client's optimistic mirrors (``mirror(_:optimistic:)``) show
    /// the action at once. With an outbox file, it is written there before
    /// it is sent.
    ///
    /// - Throws: ``DispatchRejection`` (code and message) when the server
    ///   refuses it; ``StateSyncClientError/server(code:message:path:)`` for a
    ///   protocol error; ``StateSyncClientError/closed`` when the client closes first;
    ///   ``StateSyncClientError/tooManyPendingDispatches(limit:)`` or
    ///   ``StateSyncClientError/outboxFailed(path:reason:)`` before sending it.
    @discardableResult
    public func dispatch(_ action: JSONObject) async throws -> UInt64 {
        if isClosed { throw failure ?? StateSyncClientError.closed }
        let limit = configuration.maxPendingDispatches
        guard pending.dispatches.count < limit else { throw StateSyncClientError.tooManyPendingDispatches(limit: limit) }
        let id = "\(actionIDPrefix)-\(makeWireID("a"))"
        if let outboxFile {
            let entries = pending.dispatchesInOrder.map { OutboxFile.Entry(id: $0.id, action: $0.action) }
            try outboxFile.save(OutboxFile.Contents(clientID: clientID, dispatches: entries + [OutboxFile.Entry(id: id, action: action)]))
        }
        return try await withCheckedThrowingContinuation { continuation in
            pending.add(dispatch: id, action: action, continuation: continuation)
            for sink in liveOptimisticSinks { sink.enqueue(id: id, action: action) }
            if let connection {
                sentDispatches.insert(id)
                everSent.insert(id)
                send(.dispatch(id: id, action: action), on: connection)
            }
        }
    }

    /// Sends an action of the app's own type (its ``WireAction/wireValue``).
    ///
    /// ```swift
    /// try await client.dispatch(BoardAction.addTodo(title: "Milk"))
    /// ```
    @discardableResult
    public func dispatch(_ action: some WireAction) async throws -> UInt64 {
        try await dispatch(action.wireValue)
    }

    /// Reads the value at `path` once from the server (not the mirror),
    /// whether or not it is subscribed.
    ///
    /// - Returns: the revision it was read at and the value (`null` where nothing is).
    /// - Throws: ``StateSyncClientError/server(code:message:path:)`` for
    ///   `invalid_path` or `forbidden`; ``StateSyncClientError/closed``.
    public func get(_ path: String) async throws -> (rev: UInt64, value: JSONValue) {
        if isClosed { throw failure ?? StateSyncClientError.closed }
        let pointer = try Self.pointer(path)
        let id = makeWireID("g")
        return try await withCheckedThrowingContinuation { continuation in
            pending.add(read: id, path: pointer, continuation: continuation)
            if let connection { send(.get(id: id, path: pointer), on: connection) }
        }
    }
}
