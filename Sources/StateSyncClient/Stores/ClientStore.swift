public import StateSyncCore
public import StateSyncProtocol

/// One store of the server used over the client's connection (``StateSyncClient/store(_:)-(StoreName)``), with
/// the same API as the client's own, which is `main`'s.
///
/// ```swift
/// let team = try client.store("team-42")
/// try await team.subscribe("/todos")
/// let rev = try await team.dispatch(["type": "addTodo", "title": "Milk"])   // never seen in main
/// let board = try await team.mirror(Board.self, optimistic: true)
/// ```
///
/// Each store has its own mirror, subscriptions, requests and epoch, and resumes on its own after a reconnect.
/// A handle is a small value: make one whenever needed; the state is the client's.
public struct ClientStore: Sendable, Hashable {
    /// The client whose connection this store uses.
    public let client: StateSyncClient
    /// The store's name.
    public let name: StoreName

    init(client: StateSyncClient, name: StoreName) {
        self.client = client
        self.name = name
    }

    /// Two handles are equal when they name the same store of the same client.
    public static func == (lhs: ClientStore, rhs: ClientStore) -> Bool {
        lhs.client === rhs.client && lhs.name == rhs.name
    }

    /// Hashes the client's identity and the name.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(client))
        hasher.combine(name)
    }

    /// The store's epoch, once a snapshot or value (or, for `main`, the
    /// welcome) told it; `nil` before.
    public var epoch: String? {
        get async { await client.epoch(of: name) }
    }

    /// The newest revision of this store the client has heard of; 0 before any.
    public var rev: UInt64 {
        get async { await client.rev(of: name) }
    }

    /// This store's newest revision now and after every change, as an
    /// `AsyncSequence` of distinct values (as ``StateSyncClient/observeStatus(_:)``
    /// gives `main`'s).
    public func observeRev() async -> StateObservation<UInt64> {
        await client.observeRev(of: name)
    }

    /// Subscribes to `path` in this store (``StateSyncClient/subscribe(_:)-(String)``).
    public func subscribe(_ path: String) async throws {
        try await client.subscribe(StateSyncClient.pointer(path), in: name)
    }

    /// Subscribes to `path` in this store (``StateSyncClient/subscribe(_:)-(JSONPointer)``).
    public func subscribe(_ path: JSONPointer) async throws {
        try await client.subscribe(path, in: name)
    }

    /// Ends the subscription of `path` in this store (``StateSyncClient/unsubscribe(_:)``).
    public func unsubscribe(_ path: String) async throws {
        try await client.unsubscribe(path, in: name)
    }

    /// The value at `path` of this store's mirror, now and after every
    /// change (``StateSyncClient/observe(_:)``).
    public func observe(_ path: String) async throws -> PointerObservation {
        try await client.observe(path, in: name)
    }

    /// The value at `path` decoded as `Value`, now and after every change
    /// (``StateSyncClient/observe(_:as:)``).
    public func observe<Value: Decodable & Sendable>(_ path: String, as type: Value.Type) async throws -> TypedObservation<Value> {
        TypedObservation(base: try await client.observe(path, in: name), path: path)
    }

    /// The mirrored value at `path` now (``StateSyncClient/value(at:)``).
    public func value(at path: String) async throws -> JSONValue {
        try await client.value(at: path, in: name)
    }

    /// Every change of the value at `path`, each with its revision
    /// (``StateSyncClient/changes(at:)``).
    public func changes(at path: String) async throws -> AsyncStream<MirrorChange> {
        try await client.changes(at: path, in: name)
    }

    /// A typed mirror of the value at `path` of this store (``StateSyncClient/mirror(_:at:)``).
    public func mirror<State: Decodable & Sendable>(_ type: State.Type, at path: String = "") async throws -> TypedMirror<State> {
        try await client.mirror(type, at: path, in: name)
    }

    /// An optimistic mirror of this store's whole state (``StateSyncClient/mirror(_:optimistic:)``);
    /// its dispatches go to this store.
    public func mirror<App: StateSyncApp>(_ app: App.Type, optimistic: Bool) async throws -> OptimisticMirror<App> {
        try await client.mirror(app, optimistic: optimistic, in: name)
    }

    /// Sends `action` to this store and returns the revision it was applied
    /// at (``StateSyncClient/dispatch(_:)-(JSONObject)``).
    @discardableResult
    public func dispatch(_ action: JSONObject) async throws -> UInt64 {
        try await client.dispatch(action, to: name)
    }

    /// Sends an action of the app's own type to this store (``StateSyncClient/dispatch(_:)-(WireAction)``).
    @discardableResult
    public func dispatch(_ action: some WireAction) async throws -> UInt64 {
        try await client.dispatch(action.wireValue, to: name)
    }

    /// Reads the value at `path` of this store once from the server (``StateSyncClient/get(_:)``).
    public func get(_ path: String) async throws -> (rev: UInt64, value: JSONValue) {
        try await client.get(path, in: name)
    }
}
