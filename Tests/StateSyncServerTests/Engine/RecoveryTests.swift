import StateSyncJournal
import StateSyncSQLite
import TestProcessSupport
import BoardApp
import StateSyncCore
import StateSyncProtocol
@testable import StateSyncServer
import Testing

@Suite(.timeLimit(.minutes(1)))
struct RecoveryTests {
    /// Runs 30 mixed board actions, shuts down, and restores from the
    /// snapshot at or before `snapshotLimit` plus the replayed entries after it.
    @Test(arguments: [(UInt64(7), UInt64(0)), (7, 25), (1_000, 0)])
    func replayRebuildsTheSameStateByteForByte(snapshotEvery: UInt64, snapshotLimit: UInt64) async throws {
        let memory = MemoryJournal()
        let configuration = engineConfiguration(snapshotEvery: snapshotEvery)
        let first = try await boardEngine(journal: CountingJournal(base: memory, forwardsClose: false), configuration: configuration)
        let alice = first.joinRecording("s-a", clientID: "c-a")
        for index in 0..<30 {
            let action: JSONObject = switch index % 3 {
            case 0: addTodo("todo \(index)")
            case 1: increment("hits", by: Int64(index))
            default: ["type": "postMessage", "text": .string("message \(index)")]
            }
            first.handle(.dispatch(id: "a\(index)", action: action), from: "s-a")
        }
        await alice.waitForAnswer("a29")
        let before = try await first.value(at: "", session: "s-a", sink: alice)
        await first.shutdown()

        let view = CountingJournal(base: memory, forwardsClose: false, snapshotLimit: snapshotLimit)
        let snapshot = try await view.latestSnapshot()
        #expect((snapshot?.revision ?? 0) <= snapshotLimit)
        let recovered = try await RecoveredState<Board>.restore(from: view)
        #expect(recovered.revision == before.rev)
        #expect(JSONSerializer().serialize(recovered.mirror.json) == JSONSerializer().serialize(before.value))
        // From a snapshot, the mirror is its JSON and follows the entries: never encoded whole.
        #expect(recovered.mirror.fullEncodes == (snapshot == nil ? 1 : 0))
        let reencoded = try JSONValueEncoder().encode(recovered.state)
        #expect(JSONSerializer().serialize(reencoded) == JSONSerializer().serialize(before.value))
    }

    @Test func restartKeepsTheEpochAndContinuesTheRevisions() async throws {
        try await withTemporaryDirectory { directory in
            let first = try await boardEngine(journal: try await JournalKind.sqlite.make(in: directory))
            let alice = first.joinRecording("s-a", clientID: "c-a")
            first.handle(.dispatch(id: "a1", action: addTodo("Milk")), from: "s-a")
            await alice.waitForAnswer("a1")
            let before = try await first.value(at: "/todos", session: "s-a", sink: alice)
            let epoch = first.epoch
            await first.shutdown()

            let second = try await boardEngine(journal: try await JournalKind.sqlite.make(in: directory))
            let bob = second.joinRecording("s-b", clientID: "c-b")
            second.handle(.dispatch(id: "sync", action: ["type": "clearCompleted"]), from: "s-b")
            await bob.waitForAnswer("sync")
            let after = try await second.value(at: "/todos", session: "s-b", sink: bob)
            #expect(second.epoch == epoch)
            #expect(after.value == before.value)
            // serverStarted, s-b's join and clearCompleted follow the recovered revision.
            #expect(after.rev == before.rev + 3)
            #expect(try await second.value(at: "/presence", session: "s-b", sink: bob).value.objectKeys == ["s-b"])
            await second.shutdown()
        }
    }

    @Test func aStoreCreatedByItsOpenIsRecoveredWithoutReadingItsJournal() async throws {
        try await withTemporaryDirectory { directory in
            let stores = try await SQLiteStores.open(configuration: .init(journal: .init(directory: directory)), logger: quietLogger)
            let created = CountingJournal(base: try await stores.open("team-a", logger: quietLogger) {})
            #expect(created.isKnownEmpty)
            let first = try await boardEngine(journal: created)
            let alice = first.joinRecording("s-a", clientID: "c-a")
            first.handle(.dispatch(id: "a1", action: addTodo("Milk")), from: "s-a")
            await alice.waitForAnswer("a1")
            await first.shutdown()
            #expect(created.recoveryReads == 0)

            // Opened again, it has a history: the snapshot and the clientIds with outcomes are read.
            let reopened = CountingJournal(base: try await stores.open("team-a", logger: quietLogger) {})
            #expect(!reopened.isKnownEmpty)
            let second = try await boardEngine(journal: reopened)
            let bob = second.joinRecording("s-b", clientID: "c-b")
            let todos = try await second.value(at: "/todos/0/title", session: "s-b", sink: bob)
            #expect(todos.value == "Milk")
            await second.shutdown()
            #expect(reopened.recoveryReads == 2)
            try await stores.close()
        }
    }
}
