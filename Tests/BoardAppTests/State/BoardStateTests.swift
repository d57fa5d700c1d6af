import BoardApp
import StateSyncCore
import Testing

@Suite("BoardState: JSON shape")
struct BoardStateTests {
    static let exampleText = """
        {"todos":[{"id":"t1","title":"Milk","done":false,"priority":"high"}],
         "counters":{"hits":3},
         "chat":[{"from":"alice","text":"hi","at":"2026-11-21T10:00:00Z"}],
         "presence":{"s-91":{"name":"alice-laptop","since":"2026-11-21T09:58:00Z"}}}
        """

    static let example = BoardState(
        todos: [Todo(id: "t1", title: "Milk", done: false, priority: .high)],
        counters: ["hits": 3],
        chat: [ChatMessage(from: "alice", text: "hi", at: "2026-11-21T10:00:00Z")],
        presence: ["s-91": Presence(name: "alice-laptop", since: "2026-11-21T09:58:00Z")]
    )

    @Test("the protocol's example decodes to the state and encodes back to the same JSON")
    func protocolExample() throws {
        let json = try JSONValue(parsing: Self.exampleText)
        #expect(try JSONValueDecoder().decode(BoardState.self, from: json) == Self.example)
        #expect(try JSONValueEncoder().encode(Self.example) == json)
    }

    @Test("an empty board has four empty members, serialized with sorted keys")
    func emptyBoard() throws {
        let json = try JSONValueEncoder().encode(BoardState())
        #expect(JSONSerializer().string(for: json) == #"{"chat":[],"counters":{},"presence":{},"todos":[]}"#)
    }

    @Test("a todo without a priority (version 1's shape, which migrations fill in) does not decode")
    func todoWithoutPriority() throws {
        let json = try JSONValue(parsing: #"{"id":"t1","title":"Milk","done":false}"#)
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Todo.self, from: json) }
    }

    @Test("a state missing a member does not decode")
    func missingMember() throws {
        let json = try JSONValue(parsing: #"{"todos":[],"counters":{},"chat":[]}"#)
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(BoardState.self, from: json) }
    }
}
