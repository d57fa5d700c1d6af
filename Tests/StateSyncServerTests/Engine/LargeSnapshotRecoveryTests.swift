import StateSyncCore
import StateSyncJournal
import Testing
@testable import StateSyncServer

/// A snapshot above the JSON parser's default input limit (64 MiB) is the
/// server's own writing (a state under a raised `--max-state-bytes`): it
/// restores, rather than leaving the store unable to open.
@Suite(.timeLimit(.minutes(1)))
struct LargeSnapshotRecoveryTests {
    @Test func aSnapshotAboveTheParsersDefaultLimitRestores() async throws {
        let size = JSONParser.Limits().maxInputBytes + 1_024
        let text = String(repeating: "x", count: size)
        let journal = MemoryJournal()
        try await journal.append(JournalBatch(entries: [SchemaMigrationOnOpenTests.entry(1, #"{"key":"a","type":"put","value":0}"#, version: 2)]))
        try await journal.saveSnapshot(JournalSnapshot(revision: 1, state: Array(#"{"big":"\#(text)"}"#.utf8), schemaVersion: 2))
        let recovered = try await RecoveredState<KeyValueV2App>.restore(from: journal)
        #expect(recovered.revision == 1)
        #expect(recovered.state["big"]?.stringValue?.utf8.count == size)
    }
}
