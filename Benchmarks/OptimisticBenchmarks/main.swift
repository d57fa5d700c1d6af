import BoardApp
import Foundation
import StateSyncCore

// The cost of an optimistic rebase: the server's patch moves the confirmed
// board, and N pending actions are reduced again on top of it.
// Run: swift run -c release optimistic-benchmarks
// Prints markdown tables for BENCHMARKS.md ("## Optimistic rebase", and an
// observable mirror's cost per patch).

/// A board of `todos` todos (every third done), 20 counters and a full chat.
func board(todos: Int) -> BoardState {
    BoardState(
        todos: (0..<todos).map { Todo(id: "t\($0 + 1)", title: "todo \($0 + 1)", done: $0 % 3 == 0) },
        counters: Dictionary(uniqueKeysWithValues: (0..<20).map { ("counter\($0)", Int64($0)) }),
        chat: (0..<BoardRules.chatHistory).map { ChatMessage(from: "alice", text: "message \($0)", at: "2026-11-25T10:00:00Z") })
}

/// The `index`th of a typing user's actions: adds, toggles, increments, chat.
func action(_ index: Int, todos: Int) -> BoardAction {
    switch index % 4 {
    case 0: .addTodo(title: "new \(index)")
    case 1: .toggleTodo(id: "t\(index % todos + 1)")
    case 2: .increment(counter: "counter\(index % 20)", by: 1)
    default: .postMessage(text: "hello \(index)")
    }
}

/// Microseconds of thread CPU time per rebase of `pending` actions on a
/// board of `todos` todos: the best of three runs of at least 0.3 s each.
func microsecondsPerRebase(pending: Int, todos: Int) -> Double {
    let session = SessionInfo(id: "s-1", name: "alice")
    let confirmed = board(todos: todos)
    var queue = OptimisticQueue<Board>(confirmed: confirmed, rev: 1_000, session: session, clientID: "c-1")
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    for index in 0..<pending { queue.enqueue(id: "a\(index)", action: action(index, todos: todos), at: now) }
    precondition(queue.predictedRejections.isEmpty, "every benchmark action should be predicted")
    // Each patch brings a slightly different confirmed state (another client's increment).
    var patched = confirmed
    var rebases = 0
    let best = bestMicroseconds {
        patched.counters["counter0", default: 0] += 1
        queue.confirm(patched, rev: 1_001 + UInt64(rebases))
        rebases += 1
    }
    precondition(queue.pending.count == pending && queue.predicted.counters["counter0"] == patched.counters["counter0"])
    return best
}

/// Microseconds of thread CPU time to decode the board from its JSON: what
/// every patch already costs a typed mirror, before any rebase.
func microsecondsPerDecode(todos: Int) -> Double {
    let json = try! JSONValueEncoder().encode(board(todos: todos))   // a board always encodes
    return bestMicroseconds {
        precondition((try? JSONValueDecoder().decode(BoardState.self, from: json))?.todos.count == todos)
    }
}

/// Microseconds of thread CPU time per call of `body`: the best of three
/// runs of at least 0.3 s each, calling it 16 times between clock reads.
func bestMicroseconds(_ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<3 {
        var calls = 0
        let start = threadCPUSeconds()
        var elapsed = 0.0
        while elapsed < 0.3 {
            for _ in 0..<16 { body() }
            calls += 16
            elapsed = threadCPUSeconds() - start
        }
        best = min(best, elapsed / Double(calls) * 1e6)
    }
    return best
}

print("| board | rebase, 1 pending | 10 pending | 100 pending | decode of the board (every patch) | 10 pending / decode |")
print("|---|---|---|---|---|---|")
for todos in [100, 1_000] {
    let rebases = [1, 10, 100].map { microsecondsPerRebase(pending: $0, todos: todos) }
    let decode = microsecondsPerDecode(todos: todos)
    let cells = (rebases + [decode]).map { String(format: "%.1f µs", $0) }
    print("| \(todos) todos, 20 counters, 100 chat lines | \(cells.joined(separator: " | ")) | \(String(format: "%.2fx", rebases[1] / decode)) |")
}

print()
print("| rebase of 1,000 pending actions (100 todos, 20 counters, 100 chat lines) |")
print("|---|")
print("| \(String(format: "%.0f µs", microsecondsPerRebase(pending: 1_000, todos: 100))) |")

print()
print("| observable mirror, 1,000 observed key paths | encoded board | one-field patch | decode of the whole board |")
print("|---|---|---|---|")
for todos in [20_000, 40_000] {
    let (bytes, patch) = microsecondsPerObservedPatch(todos: todos)
    let decode = microsecondsPerDecode(todos: todos)
    print("| \(todos) todos | \(String(format: "%.2f MB", Double(bytes) / 1e6)) | \(String(format: "%.1f µs", patch)) | \(String(format: "%.0f µs", decode)) |")
}
