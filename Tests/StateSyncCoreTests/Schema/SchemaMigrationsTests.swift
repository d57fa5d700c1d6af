import StateSyncCore
import Testing

/// An app's schema migrations: each step, chains of them, a missing or
/// repeated step, data from a newer version, failing steps, determinism.
@Suite(.timeLimit(.minutes(1)))
struct SchemaMigrationsTests {
    /// Version 2 adds `archived: []`; `say` becomes `postMessage`.
    static let addArchive = SchemaMigration(from: 1) { state in
        var object = state.objectValue ?? [:]
        object["archived"] = []
        return .object(object)
    } action: { action in
        action["type"] == "say" ? action.replacingType(with: "postMessage") : action
    }

    /// Version 3 renames `todos` to `items`; `postMessage` gains `priority: 0`.
    static let renameTodos = SchemaMigration(from: 2) { state in
        var object = state.objectValue ?? [:]
        object["items"] = object["todos"] ?? []
        object["todos"] = nil
        return .object(object)
    } action: { action in
        guard action["type"] == "postMessage", var object = action.objectValue else { return action }
        object["priority"] = 0
        return .object(object)
    }

    static let migrations: SchemaMigrations = [addArchive, renameTodos]

    @Test func aStepMigratesTheStateAndUpcastsTheActionsOfItsVersion() throws {
        let state: JSONValue = ["todos": [["id": "t1"]]]
        #expect(try SchemaMigrations([Self.addArchive]).migrateState(state, from: 1, to: 2)
            == ["todos": [["id": "t1"]], "archived": []])
        #expect(try SchemaMigrations([Self.addArchive]).upcastAction(["type": "say", "text": "hi"], from: 1, to: 2)
            == ["type": "postMessage", "text": "hi"])
        #expect(try SchemaMigrations([Self.addArchive]).upcastAction(["type": "addTodo"], from: 1, to: 2) == ["type": "addTodo"])
    }

    @Test func aChainRunsEachStepInOrderFromTheStoredVersion() throws {
        let state: JSONValue = ["todos": [["id": "t1"]]]
        #expect(try Self.migrations.migrateState(state, from: 1, to: 3) == ["items": [["id": "t1"]], "archived": []])
        #expect(try Self.migrations.migrateState(["todos": []], from: 2, to: 3) == ["items": []])
        #expect(try Self.migrations.migrateState(state, from: 3, to: 3) == state, "current data is left as it is")
        // A version 1 `say` goes through both steps; a version 2 `postMessage` through the second only.
        #expect(try Self.migrations.upcastAction(["type": "say", "text": "hi"], from: 1, to: 3)
            == ["type": "postMessage", "text": "hi", "priority": 0])
        #expect(try Self.migrations.upcastAction(["type": "postMessage", "text": "hi"], from: 2, to: 3)
            == ["type": "postMessage", "text": "hi", "priority": 0])
    }

    @Test func stepsMayBeRegisteredInAnyOrder() throws {
        let reversed = SchemaMigrations([Self.renameTodos, Self.addArchive])
        try reversed.validate(upTo: 3)
        #expect(try reversed.migrateState(["todos": []], from: 1, to: 3) == ["items": [], "archived": []])
    }

    @Test func aGapARepeatOrAStepPastTheVersionIsNamed() {
        #expect(throws: SchemaError.missingStep(from: 2)) { try SchemaMigrations([Self.addArchive]).validate(upTo: 3) }
        #expect(throws: SchemaError.missingStep(from: 1)) { try SchemaMigrations([Self.renameTodos]).validate(upTo: 3) }
        #expect(throws: SchemaError.duplicateStep(from: 1)) {
            try SchemaMigrations([Self.addArchive, Self.addArchive, Self.renameTodos]).validate(upTo: 3)
        }
        #expect(throws: SchemaError.stepBeyondVersion(from: 2, version: 2)) { try Self.migrations.validate(upTo: 2) }
        #expect(throws: SchemaError.invalidVersion(0)) { try SchemaMigrations([]).validate(upTo: 0) }
        #expect(SchemaError.missingStep(from: 2).description == "no migration from schema version 2 to 3: register one, in order")
    }

    @Test func anAppAtVersionOneNeedsNoSteps() throws {
        try SchemaMigrations([]).validate(upTo: 1)
        #expect(throws: SchemaError.missingStep(from: 1)) { try SchemaMigrations([]).validate(upTo: 2) }
    }

    @Test func dataFromANewerVersionIsRefusedNamingBothVersions() {
        #expect(throws: SchemaError.storedVersionNewer(stored: 4, known: 3)) {
            try Self.migrations.migrateState([:], from: 4, to: 3)
        }
        #expect(throws: SchemaError.storedVersionNewer(stored: 4, known: 3)) {
            try Self.migrations.upcastAction(["type": "say"], from: 4, to: 3)
        }
        #expect(throws: SchemaError.invalidStoredVersion(0)) { try Self.migrations.migrateState([:], from: 0, to: 3) }
        #expect(SchemaError.storedVersionNewer(stored: 4, known: 3).description
            == "the stored data is at schema version 4, newer than this build's 3: run a build that knows it")
    }

    @Test func aFailingStepIsNamedWithWhatItFailedOn() {
        struct Broken: Error, CustomStringConvertible { var description: String { "no title" } }
        let failing = SchemaMigrations([SchemaMigration(from: 1) { _ in throw Broken() } action: { _ in throw Broken() }])
        #expect(throws: SchemaError.migrationFailed(from: 1, of: .state, reason: "no title")) {
            try failing.migrateState([:], from: 1, to: 2)
        }
        #expect(throws: SchemaError.migrationFailed(from: 1, of: .action, reason: "no title")) {
            try failing.upcastAction([:], from: 1, to: 2)
        }
        #expect(SchemaError.migrationFailed(from: 1, of: .action, reason: "no title").description
            == "the migration from schema version 1 to 2 failed on an action: no title")
    }

    @Test func aTypedStepDecodesTheOldShapeAndEncodesTheNewOne() throws {
        struct TodoV1: Codable { var id: String; var title: String }
        struct TodoV2: Codable, Equatable { var id: String; var title: String; var priority: Int }
        let step = SchemaMigration.typed(from: 1, [TodoV1].self, to: [TodoV2].self) { todos in
            todos.map { TodoV2(id: $0.id, title: $0.title, priority: 0) }
        }
        let migrated = try SchemaMigrations([step]).migrateState([["id": "t1", "title": "Milk"]], from: 1, to: 2)
        #expect(try JSONValueDecoder().decode([TodoV2].self, from: migrated) == [TodoV2(id: "t1", title: "Milk", priority: 0)])
        // A stored state that is not of the old shape fails naming the step.
        #expect(throws: SchemaError.self) { try SchemaMigrations([step]).migrateState(["not": "todos"], from: 1, to: 2) }
    }

    @Test func migratingTheSameHistoryTwiceGivesTheSameBytes() throws {
        let state: JSONValue = ["todos": [["id": "t1", "title": "Milk"], ["id": "t2", "title": "Eggs"]], "chat": []]
        let actions: [JSONValue] = [["type": "say", "text": "a"], ["type": "addTodo", "title": "b"], ["type": "say", "text": "c"]]
        func migrated() throws -> [UInt8] {
            var value = try Self.migrations.migrateState(state, from: 1, to: 3)
            value["upcast"] = .array(JSONArray(try actions.map { try Self.migrations.upcastAction($0, from: 1, to: 3) }))
            return Array(JSONSerializer().string(for: value).utf8)
        }
        #expect(try migrated() == migrated())
    }
}
