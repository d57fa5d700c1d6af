import BoardApp
import Observation
import StateSyncClient
import Synchronization

/// Readers of an ``ObservableMirror`` of the board, each registered with
/// `withObservationTracking` and counting the invalidations it receives;
/// a reader that fired is armed again by ``rearm()``.
final class SliceReaders: Sendable {
    /// What one reader reads, and which slices (by name) it depends on.
    struct Reader: Sendable {
        let name: String
        let slices: Set<String>
        let read: @Sendable (ObservableMirror<Board>) -> Void
    }

    /// Two readers of each slice, one of two slices, one of the whole state, one of the pending count.
    static let board: [Reader] = {
        let perSlice: [Reader] = ["todos", "counters", "chat", "presence"].flatMap { name in
            (1...2).map { copy in
                Reader(name: "\(name) #\(copy)", slices: [name]) { mirror in
                    switch name {
                    case "todos": _ = mirror.state.todos.count
                    case "counters": _ = mirror.state.counters
                    case "chat": _ = mirror.state.chat.last
                    default: _ = mirror.state.presence.keys
                    }
                }
            }
        }
        return perSlice + [
            Reader(name: "todos+counters", slices: ["todos", "counters"]) { _ = ($0.state.todos, $0.state.counters) },
            Reader(name: "whole", slices: ["todos", "counters", "chat", "presence"]) { _ = $0.state.value },
            Reader(name: "pendingCount", slices: ["pendingCount"]) { _ = $0.isPending },
        ]
    }()

    let mirror: ObservableMirror<Board>
    let readers: [Reader]
    private let fired: Mutex<[Int]>

    /// Arms every reader of `readers` on `mirror`.
    init(_ mirror: ObservableMirror<Board>, readers: [Reader] = SliceReaders.board) {
        self.mirror = mirror
        self.readers = readers
        fired = Mutex(Array(repeating: 0, count: readers.count))
        for index in readers.indices { arm(index) }
    }

    /// How many times each reader was invalidated since the last ``rearm()``.
    var counts: [Int] { fired.withLock { $0 } }

    /// Arms again the readers that fired, and zeroes the counts.
    func rearm() {
        let counts = fired.withLock { counts in
            defer { counts = Array(repeating: 0, count: counts.count) }
            return counts
        }
        for (index, count) in counts.enumerated() where count > 0 { arm(index) }
    }

    private func arm(_ index: Int) {
        let reader = readers[index]
        withObservationTracking {
            reader.read(mirror)
        } onChange: { [self] in
            fired.withLock { $0[index] += 1 }
        }
    }
}
