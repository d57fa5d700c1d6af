public import StateSyncCore
import StateSyncProtocol

extension StateSyncClient {
    /// Subscribes to `path` on the server (a second call for the same path shares the first) and waits for its
    /// first snapshot in the mirror; while offline, the subscription is sent once the connection is back.
    ///
    /// - Throws: ``StateSyncClientError/server(code:message:path:)`` when the server refuses it (`forbidden`,
    ///   `too_many_subscriptions`), ``StateSyncClientError/invalidPath(_:reason:)``, ``StateSyncClientError/closed``.
    public func subscribe(_ path: String) async throws {
        try await subscribe(Self.pointer(path))
    }

    /// Subscribes to `path` (see ``subscribe(_:)-(String)``).
    public func subscribe(_ path: JSONPointer) async throws {
        try await subscribe(path, in: .main)
    }

    /// Subscribes to `path` of store `name` (see ``subscribe(_:)-(String)``).
    func subscribe(_ path: JSONPointer, in name: StoreName) async throws {
        if isClosed { throw failure ?? StateSyncClientError.closed }
        let store = state(name)
        if store.subscriptions[path] == nil { sendSubscribe(path, in: store) }
        try await waitUntilSynced(path, in: store)
    }

    /// Ends the server subscription of `path`. The mirror forgets its value
    /// (its observers see `null`) unless another subscription covers it.
    public func unsubscribe(_ path: String) throws {
        try unsubscribe(path, in: .main)
    }

    /// Ends the subscription of `path` in store `name` (see ``unsubscribe(_:)``).
    func unsubscribe(_ path: String, in name: StoreName) throws {
        let pointer = try Self.pointer(path)
        guard let store = stores[name], let wireID = store.subscriptions.remove(pointer) else { return }
        send(.unsubscribe(id: wireID), in: store)
        var value: JSONValue = nil
        if let covering = store.subscriptions.covering(pointer), covering.isSynced {
            value = covering.value[covering.path.relativePath(to: pointer) ?? .root] ?? nil
        }
        writeMirror(at: pointer, rev: store.rev, in: store, changes: [.replace(path: pointer, value: value)]) {
            $0.setMirrored(value, at: pointer)
        }
    }

    /// The value at `path` (`null` where nothing is) now and after every change, as distinct values read from the
    /// mirror; subscribes to `path` first unless a subscription covers it. A slow consumer skips to the newest value.
    ///
    /// ```swift
    /// for try await title in try await client.observe("/todos/0/title") { print(title) }
    /// ```
    public func observe(_ path: String) async throws -> PointerObservation {
        try await observe(path, in: .main)
    }

    /// The value at `path` of store `name` (see ``observe(_:)``).
    func observe(_ path: String, in name: StoreName) async throws -> PointerObservation {
        let pointer = try Self.pointer(path)
        try await ensureCovered(pointer, in: name)
        return state(name).mirror.observe(pointer)
    }

    /// The value at `path` decoded as `Value`, now and after every change; the sequence throws
    /// ``StateSyncClientError/decodingFailed(path:type:reason:)`` and ends when a value does not decode.
    public func observe<Value: Decodable & Sendable>(_ path: String, as type: Value.Type) async throws -> TypedObservation<Value> {
        TypedObservation(base: try await observe(path, in: .main), path: path)
    }

    /// The mirrored value at `path` now (subscribing first when nothing covers it).
    public func value(at path: String) async throws -> JSONValue {
        try await value(at: path, in: .main)
    }

    /// The mirrored value at `path` of store `name` (see ``value(at:)``).
    func value(at path: String, in name: StoreName) async throws -> JSONValue {
        let pointer = try Self.pointer(path)
        try await ensureCovered(pointer, in: name)
        return state(name).document[pointer] ?? nil
    }

    /// Every change of the value at `path` with the revision that made it, starting with the current value.
    /// Unlike ``observe(_:)`` nothing is skipped (for a log, `statesync watch --json`); ends when the client closes.
    ///
    /// ```swift
    /// for await change in try await client.changes(at: "/counters/hits") { print(change.rev, change.value) }
    /// ```
    public func changes(at path: String) async throws -> AsyncStream<MirrorChange> {
        try await changes(at: path, in: .main)
    }

    /// Every change of the value at `path` of store `name` (see ``changes(at:)``).
    func changes(at path: String, in name: StoreName) async throws -> AsyncStream<MirrorChange> {
        let pointer = try Self.pointer(path)
        try await ensureCovered(pointer, in: name)
        let store = state(name)
        let rev = store.subscriptions.covering(pointer)?.rev ?? store.rev
        return store.changeFeeds.add(pointer, current: store.document[pointer] ?? nil, rev: rev)
    }

    /// A typed mirror of the value at `path` (default: the whole state), observed by key path like a local
    /// ``Store``; throws ``StateSyncClientError/decodingFailed(path:type:reason:)`` when it does not decode.
    ///
    /// ```swift
    /// let board = try await client.mirror(BoardState.self)
    /// for await todos in board.observe(\.todos) { render(todos) }
    /// ```
    public func mirror<State: Decodable & Sendable>(_ type: State.Type, at path: String = "") async throws -> TypedMirror<State> {
        try await mirror(type, at: path, in: .main)
    }

    /// A typed mirror of the value at `path` of store `name` (see ``mirror(_:at:)``).
    func mirror<State: Decodable & Sendable>(_ type: State.Type, at path: String, in name: StoreName) async throws -> TypedMirror<State> {
        let pointer = try Self.pointer(path)
        try await ensureCovered(pointer, in: name)
        let store = state(name)
        return try TypedMirror(mirror: store.mirror, pointer: pointer, current: store.document[pointer] ?? nil)
    }

    /// Makes sure a synced subscription of store `name` covers `pointer`.
    private func ensureCovered(_ pointer: JSONPointer, in name: StoreName) async throws {
        if isClosed { throw failure ?? StateSyncClientError.closed }
        let store = state(name)
        guard let covering = store.subscriptions.covering(pointer) else {
            return try await subscribe(pointer, in: name)
        }
        try await waitUntilSynced(covering.path, in: store)
    }

    /// Returns once `path`'s subscription in `store` has its first snapshot.
    private func waitUntilSynced(_ path: JSONPointer, in store: StoreState) async throws {
        if store.subscriptions[path]?.isSynced == true { return }
        try await withCheckedThrowingContinuation { continuation in
            store.pending.syncWaiters[path, default: []].append(continuation)
        }
    }

    /// `path` as a JSON Pointer, or ``StateSyncClientError/invalidPath(_:reason:)``.
    static func pointer(_ path: String) throws(StateSyncClientError) -> JSONPointer {
        do {
            return try JSONPointer(parsing: path)
        } catch {
            throw .invalidPath(path, reason: "\(error)")
        }
    }
}
