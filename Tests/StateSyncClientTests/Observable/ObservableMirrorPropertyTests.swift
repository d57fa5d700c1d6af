import BoardApp
import StateSyncCore
import StateSyncTestSupport
import Testing

@testable import StateSyncClient

/// The observable mirror under random streams of patches (each batch the
/// diff of a few random board changes) and of this client's own actions
/// and their answers: after every batch, each reader whose slice changed
/// was invalidated exactly once, every other reader never, and the mirror
/// shows exactly the state the patches describe.
@Suite(.timeLimit(.minutes(1)))
struct ObservableMirrorPropertyTests {
    @Test(arguments: 1...8 as ClosedRange<UInt64>)
    func eachReaderIsInvalidatedOncePerBatchThatChangesItsSliceAndNeverOtherwise(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var server = BoardState(todos: [Todo(id: "t1", title: "Milk")], counters: ["hits": 1])
        var document = try JSONValueEncoder().encode(server)
        let mirror = try ObservableMirror<Board>(detached: document, rev: 1, session: SessionInfo(id: "s-1", name: "alice"))
        let readers = SliceReaders(mirror)
        var pending: [String] = []

        for step in 0..<300 {
            let before = mirror.state.value
            let pendingBefore = mirror.pendingCount
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<7:
                for _ in 0...Int.random(in: 0..<3, using: &random) { BoardChanges.random(&server, step: step, using: &random) }
                let next = try JSONValueEncoder().encode(server)
                let patch = JSONPatch.diff(from: document, to: next)
                document = next
                mirror.apply(document: document, rev: UInt64(step + 2), changes: patch.operations)
            case 7..<9:
                let id = "a\(step)"
                pending.append(id)
                mirror.enqueue(id: id, action: BoardChanges.randomAction(seeing: mirror.state.value, using: &random).wireValue)
            default:
                guard !pending.isEmpty else { continue }
                mirror.settle(id: pending.removeFirst())   // a reject: the prediction loses it
                mirror.publish()
            }
            let after = mirror.state.value
            let changed = BoardChanges.slices(differing: before, after).union(pendingBefore != mirror.pendingCount ? ["pendingCount"] : [])
            for (reader, count) in zip(readers.readers, readers.counts) {
                let expected = reader.slices.isDisjoint(with: changed) ? 0 : 1
                #expect(count == expected, "seed \(seed), step \(step): \(reader.name) invalidated \(count) times, slices changed: \(changed.sorted())")
            }
            readers.rearm()
        }
        for id in pending { mirror.settle(id: id) }
        mirror.publish()
        #expect(mirror.state.value == server, "seed \(seed): the mirror is not the state its patches describe")
    }
}
