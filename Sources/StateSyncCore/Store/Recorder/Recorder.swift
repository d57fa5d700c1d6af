import Synchronization

/// A debugging middleware that keeps the last `capacity` accepted actions with
/// the JSON Patch of each, logs them, and rebuilds the state at a kept revision
/// by replaying them. Each action costs an encoding and a diff of the state:
/// not for a busy server. Attach it to one store only.
///
/// ```swift
/// let recorder = Recorder(capacity: 500, reducer: BoardReducer())
/// let store = Store(initialState: Board(), reducer: BoardReducer(), middleware: [recorder])
/// store.send(.addTodo(title: "Milk"))
/// print(recorder.log())
/// // rev 1 {"title":"Milk","type":"addTodo"} by - at 2026-11-21T10:00:00Z
/// //   add /todos/0 {"done":false,"id":"t1","title":"Milk"}
/// let earlier = try recorder.state(at: 1)
/// ```
public final class Recorder<State: Encodable & Sendable, Action: Encodable & Sendable>: Middleware {
    /// One recorded action.
    public struct Entry: Sendable {
        /// The accepted action.
        public let action: Action
        /// Its metadata (revision, client, time).
        public let meta: Meta
        /// The change it made, as a JSON Patch from the old to the new state,
        /// or why the states could not be encoded.
        public let patch: Result<JSONPatch, RecorderError>
    }

    /// The recorded history, guarded by `book`'s mutex.
    private struct Book {
        /// The state before the oldest entry, and its revision.
        var base: (state: State, revision: UInt64)?
        var entries: [Entry] = []
        /// The JSON of the newest state, reused as the next change's old side.
        var lastDocument: (revision: UInt64, value: JSONValue)?
        /// Set when advancing the base by replay failed.
        var baseFailure: RecorderError?
    }

    private let book = Mutex(Book())
    private let reducer: any Reducer<State, Action>
    private let capacity: Int
    private let encoder = JSONValueEncoder()

    /// A recorder keeping the last `capacity` entries (at least 1; default
    /// 1,000: enough to scroll back through a debugging session while bounding
    /// memory). `reducer` must be the store's reducer: it replays entries.
    public init(capacity: Int = 1_000, reducer: some Reducer<State, Action>) {
        self.capacity = max(1, capacity)
        self.reducer = reducer
    }

    /// The kept entries, oldest first.
    public var entries: [Entry] {
        book.withLock { $0.entries }
    }

    /// Records the change: encodes it, diffs it, and drops the oldest entry when full.
    public func didReduce(_ change: StateChange<State, Action>) {
        let reused = book.withLock { book in
            if book.base == nil { book.base = (change.old, change.meta.revision - 1) }
            return book.lastDocument
        }
        let patch: Result<JSONPatch, RecorderError>
        var newDocument: JSONValue?
        do {
            let old = try reused.flatMap { $0.revision == change.meta.revision - 1 ? $0.value : nil }
                ?? encoder.encode(change.old)
            let new = try encoder.encode(change.new)
            newDocument = new
            patch = .success(JSONPatch.diff(from: old, to: new))
        } catch {
            patch = .failure(.encodingFailed(change.meta.revision, error))
        }
        let entry = Entry(action: change.action, meta: change.meta, patch: patch)
        book.withLock { book in
            book.lastDocument = newDocument.map { (change.meta.revision, $0) }
            book.entries.append(entry)
            while book.entries.count > capacity {
                advanceBase(&book, past: book.entries.removeFirst())
            }
        }
    }

    /// The state right after `revision`, replayed from the base snapshot.
    /// - Throws: ``RecorderError`` when `revision` is not recorded, or a replay
    ///   is rejected (a non-deterministic reducer).
    public func state(at revision: UInt64) throws(RecorderError) -> State {
        let (base, entries, failure) = book.withLock { ($0.base, $0.entries, $0.baseFailure) }
        if let failure { throw failure }
        guard let base else { throw .notRecorded(revision, oldest: 0, newest: 0) }
        let newest = entries.last?.meta.revision ?? base.revision
        guard revision >= base.revision, revision <= newest else {
            throw .notRecorded(revision, oldest: base.revision, newest: newest)
        }
        var state = base.state
        for entry in entries where entry.meta.revision <= revision {
            try replay(entry, on: &state)
        }
        return state
    }

    /// Moves the base snapshot past `entry` by replaying it.
    private func advanceBase(_ book: inout Book, past entry: Entry) {
        guard var base = book.base else { return }
        do {
            try replay(entry, on: &base.state)
            base.revision = entry.meta.revision
            book.base = base
        } catch {
            book.baseFailure = error
        }
    }

    /// Applies one recorded entry through the reducer.
    private func replay(_ entry: Entry, on state: inout State) throws(RecorderError) {
        do {
            _ = try reducer.reduce(into: &state, action: entry.action, meta: entry.meta)
        } catch {
            throw .replayRejected(entry.meta.revision, error)
        }
    }
}
