import BoardApp
import StateSyncCore
import Testing

/// The board's version 2 step: version 1's todos gain `priority: normal`,
/// and its `say` becomes `postMessage`; the result reads as today's types,
/// and the same input migrates to the same bytes.
@Suite("BoardMigrations: version 1 to 2")
struct BoardMigrationsTests {
    static let versionOne = """
        {"chat":[{"at":"2026-11-21T10:00:00Z","from":"alice","text":"hi"}],"counters":{"hits":3},"presence":{},
         "todos":[{"done":true,"id":"t2","title":"Milk"},{"done":false,"id":"t5","title":"Bread"}]}
        """

    @Test func theChainLeadsFromVersionOneToTheBoardsVersion() throws {
        try Board.validateSchema()
        #expect(Board.schemaVersion == 2)
    }

    @Test func versionOneTodosBecomeNormalAndTheRestStaysAsItWas() throws {
        let stored = try JSONValue(parsing: Self.versionOne)
        let migrated = try Board.migrations.migrateState(stored, from: 1, to: Board.schemaVersion)
        let board = try JSONValueDecoder().decode(BoardState.self, from: migrated)
        #expect(board.todos == [Todo(id: "t2", title: "Milk", done: true), Todo(id: "t5", title: "Bread")])
        #expect(board.todos.allSatisfy { $0.priority == .normal })
        #expect(board.counters == ["hits": 3])
        #expect(board.chat == [ChatMessage(from: "alice", text: "hi", at: "2026-11-21T10:00:00Z")])
    }

    @Test func migratingTheSameStateTwiceGivesTheSameBytes() throws {
        let stored = try JSONValue(parsing: Self.versionOne)
        let first = try Board.migrations.migrateState(stored, from: 1, to: 2)
        let second = try Board.migrations.migrateState(stored, from: 1, to: 2)
        #expect(JSONSerializer().string(for: first) == JSONSerializer().string(for: second))
    }

    @Test func aSayIsUpcastToPostMessageAndOtherActionsPassUnchanged() throws {
        let say = try Board.migrations.upcastAction(["type": "say", "text": "hi"], from: 1, to: 2)
        #expect(say == ["type": "postMessage", "text": "hi"])
        #expect(try BoardAction(wireValue: #require(say.objectValue)) == .postMessage(text: "hi"))
        for action: JSONValue in [["type": "addTodo", "title": "Milk"], ["type": "increment", "counter": "hits", "by": 2]] {
            #expect(try Board.migrations.upcastAction(action, from: 1, to: 2) == action)
        }
        // Today's actions are not upcast at all.
        #expect(try Board.migrations.upcastAction(["type": "say", "text": "hi"], from: 2, to: 2) == ["type": "say", "text": "hi"])
    }

    @Test func aStateOfAVersionNewerThanTheBoardIsAnErrorNamingBoth() {
        #expect(throws: SchemaError.storedVersionNewer(stored: 3, known: 2)) {
            try Board.migrations.migrateState(.object([:]), from: 3, to: Board.schemaVersion)
        }
    }
}
