public import StateSyncCore
import Synchronization

/// A typed, read-only view of one path of a ``StateSyncClient``'s mirror, kept up to date and observed by key
/// path exactly as a local ``Store``, so a view binds to either alike.
///
/// ```swift
/// let board = try await client.mirror(BoardState.self)
/// let token = board.subscribe(\.counters) { counters in print(counters) }
/// for await todos in board.observe(\.todos) { render(todos) }
/// ```
///
/// Each change is decoded once; for a ``SlicedState``, only the touched slices are. A change that does not
/// decode leaves ``state`` as it was and is reported by ``decodingError``.
public final class TypedMirror<State: Decodable & Sendable>: Sendable {
    private let store: LocalStore<State>
    private let path: String
    private let feed: Mutex<ObservationToken?>
    private let lastError = Mutex<StateSyncClientError?>(nil)
    /// Decodes changes slice by slice, when `State` is a ``SlicedState``.
    private let slices: SliceDecoder<State>?
    /// The JSON ``state`` was decoded from: a change is what differs from it.
    private let decodedJSON: Mutex<JSONValue>

    /// A mirror of `pointer` in `mirror`, starting from its `current` value.
    init(mirror: LocalStore<JSONValue>, pointer: JSONPointer, current: JSONValue) throws(StateSyncClientError) {
        path = "\(pointer)"
        store = LocalStore(initialState: try decode(current, as: State.self, path: path))
        slices = (State.self as? any SlicedState.Type).flatMap { Self.sliceDecoder(of: $0) }
        decodedJSON = Mutex(current)
        feed = Mutex(nil)
        let token = mirror.subscribe(pointer) { [weak self] json in self?.update(json) }
        feed.withLock { $0 = token }
    }

    /// Decodes a new value of the mirrored JSON into ``state``: the slices
    /// it changed, or all of it.
    private func update(_ json: JSONValue) {
        do throws(StateSyncClientError) {
            let state = try decodedJSON.withLock { decoded throws(StateSyncClientError) in
                let state = try decodeChange(from: decoded, to: json)
                decoded = json
                return state
            }
            lastError.withLock { $0 = nil }
            store.performStateUpdate { $0 = state }
        } catch {
            lastError.withLock { $0 = error }
        }
    }

    /// The state of `json`, decoding only the slices that differ from `old` (the JSON of ``state``) when it can;
    /// the diff is cheap because consecutive mirror values share unchanged storage.
    private func decodeChange(from old: JSONValue, to json: JSONValue) throws(StateSyncClientError) -> State {
        guard let slices else { return try decode(json, as: State.self, path: path) }
        var state = store.state
        do {
            _ = try slices.apply(JSONPatch.diff(from: old, to: json).operations, document: json, to: &state)
        } catch {
            throw .decodingFailed(path: path.isEmpty ? "/" : path, type: "\(State.self)", reason: "\(error)")
        }
        return state
    }

    /// The slice decoder of a ``SlicedState`` type, as `State`'s.
    private static func sliceDecoder<Sliced: SlicedState>(of type: Sliced.Type) -> SliceDecoder<State>? {
        SliceDecoder<Sliced>(slices: Sliced.slices) as? SliceDecoder<State>
    }

    /// The mirrored state now.
    public var state: State { store.state }

    /// The decoding failure of the latest change, if it did not decode
    /// (``state`` then still holds the last value that did).
    public var decodingError: StateSyncClientError? { lastError.withLock { $0 } }

    /// The value at `path` now and after every change, as an `AsyncSequence`
    /// of distinct values (``Store/observe(_:)-(KeyPath)``).
    public func observe<Value: Equatable & Sendable>(_ path: any KeyPath<State, Value> & Sendable) -> StateObservation<Value> {
        store.observe(path)
    }

    /// Calls `receive` with the value at `path` now and after every change
    /// (``Store/subscribe(_:_:)``); the subscription lasts while the token does.
    public func subscribe<Value: Equatable & Sendable>(
        _ path: any KeyPath<State, Value> & Sendable, _ receive: @escaping @Sendable (Value) -> Void
    ) -> ObservationToken {
        store.subscribe(path, receive)
    }
}
