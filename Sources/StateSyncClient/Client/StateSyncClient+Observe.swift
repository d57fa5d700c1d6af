public import StateSyncCore
import StateSyncProtocol

extension StateSyncClient {
    /// Subscribes to `path` on the server (once per path; a second call for
    /// the same path shares the first) and waits until its first snapshot is
    /// in the mirror.
    ///
    /// While offline the subscription is sent when the connection is back.
    ///
    /// - Throws: ``StateSyncClientError/invalidPath(_:reason:)`` for a bad
    ///   pointer; ``StateSyncClientError/server(code:message:path:)`` when the
    ///   server refuses it (`forbidden`, `too_many_subscriptions`);
    ///   ``StateSyncClientError/closed``.
    public func subscribe(_ path: String) async throws {
        try await subscribe(Self.pointer(path))
    }

    /// Subscribes to `path` (see ``subscribe(_:)-(String)``).
    public func subscribe(_ path: JSONPointer) async throws {
        if isClosed { throw failure ?? StateSyncClientError.closed }
        if subscriptions[path] == nil { sendSubscribe(path) }
        try await waitUntilSynced(path)
    }

    /// Ends the server subscription of `path`. The mirror forgets its value
    /// (its observers see `null`) unless another subscription covers it.
    public func unsubscribe(_ path: String) throws {
        let pointer = try Self.pointer(path)
        guard let wireID = subscriptions.remove(pointer) else { return }
        if let connection { send(.unsubscribe(id: wireID), on: connection) }
        var value: JSONValue = nil
        if let covering = subscriptions.covering(pointer), covering.isSynced {
            value = covering.value[covering.path.relativePath(to: pointer) ?? .root] ?? nil
        }
        writeMirror(at: pointer, rev: status.rev) { $0.setMirrored(value, at: pointer) }
    }

    /// The value at `path` now and after every change, as an `AsyncSequence`
    /// of distinct JSON values (`null` where nothing is), read from the mirror.
    ///
    /// When a subscription already covers `path` (`/todos` covers
    /// `/todos/0/title`) this costs no server traffic; otherwise `path` is
    /// subscribed first. Returns once the first value is known, which the
    /// sequence then yields first. A slow consumer skips to the newest value.
    ///
    /// ```swift
    /// for try await title in try await client.observe("/todos/0/title") { print(title) }
    /// ```
    public func observe(_ path: String) async throws -> PointerObservation {
        let pointer = try Self.pointer(path)
        try await ensureCovered(pointer)
        return mirror.observe(pointer)
    }

    /// The value at `path` decoded as `Value`, now and after every change.
    ///
    /// ```swift
    /// for try await todos in try await client.observe("/todos", as: [Todo].self) { render(todos) }
    /// ```
    ///
    /// The sequence throws ``StateSyncClientError/decodingFailed(path:type:reason:)``
    /// (and ends) when a value does not decode.
    public func observe<Value: Decodable & Sendable>(_ path: String, as type: Value.Type) async throws -> TypedObservation<Value> {
        TypedObservation(base: try await observe(path), path: path)
    }

    /// The mirrored value at `path` now (subscribing first when nothing covers it).
    public func value(at path: String) async throws -> JSONValue {
        let pointer = try Self.pointer(path)
        try await ensureCovered(pointer)
        return document[pointer] ?? nil
    }

    /// Every change of the value at `path`, each with the revision that made
    /// it, as an `AsyncSequence` that starts with the current value (and the
    /// revision of the subscription holding it). Unlike ``observe(_:)``,
    /// nothing is skipped: every distinct value is buffered until read, for
    /// consumers that must see each revision (a log, `statesync watch --json`).
    /// Subscribes `path` when no subscription covers it; ends when the client closes.
    ///
    /// ```swift
    /// for await change in try await client.changes(at: "/counters/hits") { print(change.rev, change.value) }
    /// ```
    public func changes(at path: String) async throws -> AsyncStream<MirrorChange> {
        let pointer = try Self.pointer(path)
        try await ensureCovered(pointer)
        let rev = subscriptions.covering(pointer)?.rev ?? status.rev
        return changeFeeds.add(pointer, current: document[pointer] ?? nil, rev: rev)
    }

    /// A typed mirror of the value at `path` (default: the whole state), for
    /// apps that share their `State` type with the server: observe it by key
    /// path exactly as a local ``Store``.
    ///
    /// ```swift
    /// let board = try await client.mirror(BoardState.self)
    /// for await todos in board.observe(\.todos) { render(todos) }
    /// ```
    ///
    /// - Throws: ``StateSyncClientError/decodingFailed(path:type:reason:)`` when
    ///   the current value does not decode as `State`.
    public func mirror<State: Decodable & Sendable>(_ type: State.Type, at path: String = "") async throws -> TypedMirror<State> {
        let pointer = try Self.pointer(path)
        try await ensureCovered(pointer)
        return try TypedMirror(mirror: mirror, pointer: pointer, current: document[pointer] ?? nil)
    }

    /// Makes sure a synced subscription covers `pointer`.
    private func ensureCovered(_ pointer: JSONPointer) async throws {
        if isClosed { throw failure ?? StateSyncClientError.closed }
        guard let covering = subscriptions.covering(pointer) else {
            return try await subscribe(pointer)
        }
        try await waitUntilSynced(covering.path)
    }

    /// Returns once `path`'s subscription has its first snapshot.
    private func waitUntilSynced(_ path: JSONPointer) async throws {
        if subscriptions[path]?.isSynced == true { return }
        try await withCheckedThrowingContinuation { continuation in
            pending.syncWaiters[path, default: []].append(continuation)
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
