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
    /// Runs 30 mixed board actions in `journal` and shuts down; returns the
    /// whole state and revision the engine ended at.
    private func journalThirtyActions(in journal: MemoryJournal, snapshotEvery: UInt64) async throws -> (rev: UInt64, value: JSONValue) {
        let configuration = engineConfiguration(snapshotEvery: snapshotEvery)
        let first = try await boardEngine(journal: CountingJournal(base: journal, forwardsClose: false), configuration: configuration)
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
        return (before.rev, before.value)
    }

    /// Restores from the snapshot at or before `snapshotLimit` plus the
    /// replayed entries after it, read `pageSize` at a time: the first page
    /// is decoded while the snapshot is, the rest after it.
    @Test(arguments: [(UInt64(7), UInt64(0), 1_000), (7, 25, 4), (1_000, 0, 3), (7, 25, 1)])
    func replayRebuildsTheSameStateByteForByte(snapshotEvery: UInt64, snapshotLimit: UInt64, pageSize: Int) async throws {
        let memory = MemoryJournal()
        let before = try await journalThirtyActions(in: memory, snapshotEvery: snapshotEvery)

        let view = CountingJournal(base: memory, forwardsClose: false, snapshotLimit: snapshotLimit)
        let snapshot = try await view.latestSnapshot()
        #expect((snapshot?.revision ?? 0) <= snapshotLimit)
        let recovered = try await RecoveredState<Board>.restore(from: view, pageSize: pageSize)
        #expect(recovered.revision == before.rev)
        #expect(JSONSerializer().serialize(recovered.mirror.json) == JSONSerializer().serialize(before.value))
        // From a snapshot, the mirror is its JSON and follows the entries: never encoded whole.
        #expect(recovered.mirror.fullEncodes == (snapshot == nil ? 1 : 0))
        let reencoded = try JSONValueEncoder().encode(recovered.state)
        #expect(JSONSerializer().serialize(reencoded) == JSONSerializer().serialize(before.value))
    }

    /// Appends an entry whose action is not JSON after `revision`.
    private func appendUndecodableEntry(to journal: MemoryJournal, after revision: UInt64) async throws {
        let entry = JournalEntry(meta: Meta(revision: revision + 1, time: fixtureTime), action: Array("not json".utf8))
        try await journal.append(JournalBatch(entries: [entry]))
    }

    /// An entry that does not decode is reported with its revision, whether
    /// it was read ahead while the snapshot decoded (a page of 1,000) or
    /// after it (pages of 1, from the snapshot at or before 25).
    @Test(arguments: [1, 1_000])
    func anUndecodableEntryIsReportedWithItsRevision(pageSize: Int) async throws {
        let memory = MemoryJournal()
        let before = try await journalThirtyActions(in: memory, snapshotEvery: 7)
        try await appendUndecodableEntry(to: memory, after: before.rev)
        let view = CountingJournal(base: memory, forwardsClose: false, snapshotLimit: 25)
        let error = await #expect(throws: SyncEngineError.self) {
            try await RecoveredState<Board>.restore(from: view, pageSize: pageSize)
        }
        #expect(error?.description.hasPrefix("the journal entry at revision \(before.rev + 1) does not decode") == true)
    }

    /// A snapshot that does not decode is reported, not a bad entry read
    /// ahead while it was decoded: the snapshot comes first.
    @Test func anUndecodableSnapshotIsReportedBeforeAnUndecodableEntryAfterIt() async throws {
        let memory = MemoryJournal()
        let before = try await journalThirtyActions(in: memory, snapshotEvery: 1_000)
        try await appendUndecodableEntry(to: memory, after: before.rev)
        try await memory.saveSnapshot(JournalSnapshot(revision: before.rev, state: Array(#"{"todos":7}"#.utf8)))
        let error = await #expect(throws: SyncEngineError.self) {
            try await RecoveredState<Board>.restore(from: memory)
        }
        #expect(error?.description.hasPrefix("the snapshot at revision \(before.rev) does not decode") == true)
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
