import StateSyncCore
import Testing
@testable import StateSyncServer

/// An app whose migrations do not lead to its `schemaVersion` does not
/// start: the server says which step is missing before it opens any data.
@Suite(.timeLimit(.minutes(1)))
struct SchemaStartTests {
    /// The key-value app at version 3 with a step from 1 only.
    enum GappedApp: StateSyncApp {
        static var initialState: JSONValue { KeyValueApp.initialState }
        static var reducer: any Reducer<JSONValue, SessionCommand<Action>> { KeyValueApp.reducer }
        static var schemaVersion: Int { 3 }
        static var migrations: SchemaMigrations { [SchemaMigration(from: 1) { $0 }] }
        typealias Action = KeyValueApp.Action
    }

    @Test func anAppWithAGapInItsMigrationsDoesNotStart() async throws {
        let server = StateSyncServer<GappedApp>(configuration: StateSyncServerConfiguration(port: 0, storage: .memory))
        await #expect(throws: SchemaError.missingStep(from: 2)) { try await server.run() }
        await #expect(throws: SchemaError.missingStep(from: 2)) { _ = try await server.waitUntilStarted() }
    }

    @Test func anAppWithAFullChainStarts() throws {
        enum ChainedApp: StateSyncApp {
            static var initialState: JSONValue { KeyValueApp.initialState }
            static var reducer: any Reducer<JSONValue, SessionCommand<Action>> { KeyValueApp.reducer }
            static var schemaVersion: Int { 3 }
            static var migrations: SchemaMigrations { [SchemaMigration(from: 2) { $0 }, SchemaMigration(from: 1) { $0 }] }
            typealias Action = KeyValueApp.Action
        }
        try ChainedApp.validateSchema()
        try KeyValueApp.validateSchema()   // version 1 by default, no steps
        #expect(KeyValueApp.schemaVersion == 1)
    }
}
