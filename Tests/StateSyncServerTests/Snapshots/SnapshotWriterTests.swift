import StateSyncCore
@testable import StateSyncServer
import StateSyncJournal
import Testing

@Suite(.timeLimit(.minutes(1)))
struct SnapshotWriterTests {
    @Test func itSavesOffTheCallerAndFinishWaitsForTheLastSave() async throws {
        let journal = MemoryJournal()
        try await journal.append(JournalBatch(entries: (1...3).map {
            JournalEntry(meta: Meta(revision: $0, time: fixtureTime), action: Array("{}".utf8))
        }))
        let writer = SnapshotWriter(journal: journal, schemaVersion: 1, logger: quietLogger)
        writer.save(["n": 2], at: 2)
        writer.save(["n": 3], at: 3)
        await writer.finish()
        let latest = try #require(try await journal.latestSnapshot())
        #expect(latest.revision == 3)
        #expect(latest.state == Array(#"{"n":3}"#.utf8))
    }

    @Test func aFailedSaveIsLoggedAndLaterSavesStillHappen() async throws {
        let journal = MemoryJournal()
        try await journal.append(JournalBatch(entries: [JournalEntry(meta: Meta(revision: 1, time: fixtureTime), action: Array("{}".utf8))]))
        let writer = SnapshotWriter(journal: journal, schemaVersion: 1, logger: quietLogger)
        // Past the last appended revision: the journal refuses it.
        writer.save(["n": 9], at: 9)
        await writer.finish()
        #expect(try await journal.latestSnapshot() == nil)
        let second = SnapshotWriter(journal: journal, schemaVersion: 1, logger: quietLogger)
        second.save(["n": 1], at: 1)
        await second.finish()
        #expect(try await journal.latestSnapshot()?.revision == 1)
    }
}
