public import StateSyncCore
import StateSyncProtocol

extension StateSyncClient {
    /// Sends `action` and returns the revision at which the server applied and stored it; the patches up to that
    /// revision are in the mirror by then. Unanswered actions are re-sent with their ids after a reconnect, so
    /// each applies exactly once.
    ///
    /// ```swift
    /// let rev = try await client.dispatch(["type": "addTodo", "title": "Milk"])
    /// ```
    ///
    /// - Throws: ``DispatchRejection`` when the server refuses it (not for `unavailable` once sent: it is re-sent
    ///   until decided), ``StateSyncClientError/server(code:message:path:)``, ``StateSyncClientError/closed``,
    ///   and before sending `tooManyPendingDispatches` or `outboxFailed`.
    @discardableResult
    public func dispatch(_ action: JSONObject) async throws -> UInt64 {
        try await dispatch(action, to: .main)
    }

    /// Sends `action` to store `name` (see ``dispatch(_:)-(JSONObject)``).
    func dispatch(_ action: JSONObject, to name: StoreName) async throws -> UInt64 {
        if isClosed { throw failure ?? StateSyncClientError.closed }
        let limit = configuration.maxPendingDispatches
        let waiting = stores.values.reduce(0) { $0 + $1.pending.dispatches.count }
        guard waiting < limit else { throw StateSyncClientError.tooManyPendingDispatches(limit: limit) }
        let store = state(name)
        let id = "\(actionIDPrefix)-\(makeWireID("a"))"
        if let outboxFile {
            try outboxFile.save(outboxContents(
                adding: OutboxFile.Entry(id: id, action: action, store: name, schemaVersion: configuration.schemaVersion)))
        }
        return try await withCheckedThrowingContinuation { continuation in
            store.pending.add(dispatch: id, action: action, schemaVersion: configuration.schemaVersion, continuation: continuation)
            for sink in store.liveOptimisticSinks { sink.enqueue(id: id, action: action) }
            // While the store waits to resume, its earlier dispatches go first (``resume(_:)``).
            if store.epochProbe == nil { flushDispatches(store) }
        }
    }

    /// Sends an action of the app's own type (its ``WireAction/wireValue``).
    ///
    /// ```swift
    /// try await client.dispatch(BoardAction.addTodo(title: "Milk"))
    /// ```
    @discardableResult
    public func dispatch(_ action: some WireAction) async throws -> UInt64 {
        try await dispatch(action.wireValue, to: .main)
    }

    /// Reads the value at `path` once from the server (not the mirror), subscribed or not; returns its revision
    /// and value (`null` where nothing is). Throws `invalid_path` or `forbidden` as
    /// ``StateSyncClientError/server(code:message:path:)``.
    public func get(_ path: String) async throws -> (rev: UInt64, value: JSONValue) {
        try await get(path, in: .main)
    }

    /// Reads the value at `path` of store `name` once (see ``get(_:)``).
    func get(_ path: String, in name: StoreName) async throws -> (rev: UInt64, value: JSONValue) {
        if isClosed { throw failure ?? StateSyncClientError.closed }
        let pointer = try Self.pointer(path)
        let store = state(name)
        let id = makeWireID("g")
        return try await withCheckedThrowingContinuation { continuation in
            store.pending.add(read: id, path: pointer, continuation: continuation)
            send(.get(id: id, path: pointer), in: store)
        }
    }
}
