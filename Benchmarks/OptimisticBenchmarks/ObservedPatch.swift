import BoardApp
import Observation
import StateSyncClient
import StateSyncCore

/// The cost of one server patch that toggles one todo, applied to an
/// observable mirror of a board of `todos` todos watched by 1,000 readers
/// (`withObservationTracking`): the JSON document patched, the one touched
/// todo decoded, the one reader of the todos invalidated and armed again;
/// the 999 readers of the counters are not touched. Returns the board's
/// encoded size in bytes and the microseconds of thread CPU time per patch.
func microsecondsPerObservedPatch(todos: Int) -> (bytes: Int, microseconds: Double) {
    var document = try! JSONValueEncoder().encode(board(todos: todos))   // a board always encodes
    let bytes = JSONSerializer().serialize(document).count
    let mirror = try! ObservableMirror<Board>(detached: document, rev: 1, session: SessionInfo(id: "s-1", name: "alice"))
    for index in 0..<999 {
        let name = "counter\(index % 20)"
        withObservationTracking { _ = mirror.state.counters[name] } onChange: { fatalError("a todo's patch invalidated a counter's reader") }
    }
    var rev: UInt64 = 1
    var done = false
    let microseconds = bestMicroseconds {
        withObservationTracking { _ = mirror.state.todos.count } onChange: {}
        rev += 1
        done.toggle()
        let patch = JSONPatch([.replace(path: JSONPointer(tokens: ["todos", "\(todos / 2)", "done"]), value: .bool(done))])
        try! patch.apply(to: &document)   // the path exists
        mirror.apply(document: document, rev: rev, changes: patch.operations)
    }
    precondition(mirror.state.todos[todos / 2].done == done)
    return (bytes, microseconds)
}
