import BoardApp
import OpenCombineShim
import StateSyncCombine
import StateSyncCore
import Synchronization
import Testing

@testable import StateSyncClient

/// The Combine-style publisher of a mirror's slice: the value now, each
/// distinct change after it, nothing once cancelled.
@Suite(.timeLimit(.minutes(1)))
struct OptimisticMirrorPublisherTests {
    @Test func aPublisherSendsTheValueNowAndEachChangeOfItsSliceUntilCancelled() throws {
        let document = try JSONValueEncoder().encode(BoardState(counters: ["hits": 1]))
        let observable = try ObservableMirror<Board>(detached: document, rev: 1, session: SessionInfo(id: "s-1", name: "alice"))
        let board = OptimisticMirror(observable: observable)
        let received = Mutex<[[String: Int64]]>([])
        let cancellable = board.publisher(\.counters).sink { counters in received.withLock { $0.append(counters) } }

        observable.apply(document: try JSONValueEncoder().encode(BoardState(counters: ["hits": 2])), rev: 2,
                         changes: [.replace(path: JSONPointer(tokens: ["counters", "hits"]), value: 2)])
        observable.apply(document: try JSONValueEncoder().encode(BoardState(todos: [Todo(id: "t3", title: "Milk")], counters: ["hits": 2])), rev: 3,
                         changes: [.add(path: JSONPointer(tokens: ["todos", "-"]), value: ["id": "t3", "title": "Milk", "done": false])])
        cancellable.cancel()
        observable.apply(document: try JSONValueEncoder().encode(BoardState(todos: [Todo(id: "t3", title: "Milk")], counters: ["hits": 3])), rev: 4,
                         changes: [.replace(path: JSONPointer(tokens: ["counters", "hits"]), value: 3)])

        #expect(received.withLock { $0 } == [["hits": 1], ["hits": 2]], "the todo changed nothing here; the cancelled one saw no more")
    }
}
