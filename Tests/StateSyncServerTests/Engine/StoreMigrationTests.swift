import StateSyncCore
import StateSyncJournal
import Synchronization
import Testing
@testable import StateSyncServer

/// Offline migration (`statesync migrate`): the store's history is brought to
/// the app's version, proved by replaying it twice and by reading back the
/// snapshot written; a dry run writes nothing; a step that is not
/// deterministic is caught before anything is written.
@Suite(.timeLimit(.minutes(1)))
struct StoreMigrationTests {
    @Test func anOlderStoreIsMigratedAndTheSnapshotWrittenGivesTheSameState() async throws {
        let journal = CountingJournal(base: try await SchemaMigrationOnOpenTests.versionOneJournal())
        let report = try await StoreMigration<KeyValueV2App>.migrate(journal, dryRun: false)
        #expect(report.oldestVersion == 1 && !report.wasCurrent && report.wroteSnapshot && report.revision == 3)
        let saved = await journal.firstSavedSnapshot()
        #expect(saved.revision == 3 && saved.schemaVersion == 2)
        #expect(try JSONParser().parse(saved.state) == ["a": 1, "b": 2, "version": 2])
        #expect(report.stateHash == StoreMigration<KeyValueV2App>.hash(saved.state))
        #expect(report.stateHash.hasPrefix("sha256:") && report.stateHash.count == 7 + 64)

        // Migrated once, it is current: a second run finds nothing to do, and the same state.
        let again = try await StoreMigration<KeyValueV2App>.migrate(journal, dryRun: false)
        #expect(again.wasCurrent && !again.wroteSnapshot && again.stateHash == report.stateHash)
    }

    @Test func aDryRunProvesTheMigrationAndWritesNothing() async throws {
        let journal = try await SchemaMigrationOnOpenTests.versionOneJournal()
        let report = try await StoreMigration<KeyValueV2App>.migrate(journal, dryRun: true)
        #expect(report.oldestVersion == 1 && !report.wroteSnapshot)
        let snapshot = try await journal.recovery().snapshot
        #expect(snapshot?.revision == 1 && snapshot?.schemaVersion == 1, "the version 1 snapshot is still the newest")
    }

    /// The key-value app whose step from 1 stamps a value that changes on each call.
    enum Unstable: StateSyncApp {
        typealias Action = KeyValueApp.Action
        static var initialState: JSONValue { KeyValueApp.initialState }
        static var reducer: any Reducer<JSONValue, SessionCommand<Action>> { KeyValueApp.reducer }
        static var schemaVersion: Int { 2 }
        static let calls = Atomic<Int>(0)
        static var migrations: SchemaMigrations {
            [SchemaMigration(from: 1) { state in
                var object = state.objectValue ?? [:]
                object["stamp"] = .integer(Int64(calls.add(1, ordering: .relaxed).newValue))
                return .object(object)
            } action: { action in
                action["type"] == "set" ? action.replacingType(with: "put") : action
            }]
        }
    }

    @Test func aStepThatIsNotDeterministicIsCaughtBeforeAnythingIsWritten() async throws {
        let journal = try await SchemaMigrationOnOpenTests.versionOneJournal()
        let error = await #expect(throws: StoreMigrationError.self) {
            _ = try await StoreMigration<Unstable>.migrate(journal, dryRun: false)
        }
        #expect(error?.description.contains("a migration step is not deterministic; nothing was written") == true)
        let snapshot = try await journal.recovery().snapshot
        #expect(snapshot?.revision == 1 && snapshot?.schemaVersion == 1)
    }
}
