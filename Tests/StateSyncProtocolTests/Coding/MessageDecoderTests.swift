import StateSyncCore
import StateSyncProtocol
import Testing

@Suite("MessageDecoder: client messages")
struct MessageDecoderTests {
    let decoder = MessageDecoder()

    static let errorCases: [ErrorCase] = [
        // bad_json: not JSON, or not an object
        ErrorCase(text: "{\"type\":", code: .badJSON, id: nil,
                  message: "not valid JSON: unexpected end of input at byte 8: expected a value"),
        ErrorCase(text: "", code: .badJSON, id: nil,
                  message: "not valid JSON: unexpected end of input at byte 0: expected a value"),
        ErrorCase(text: "[1,2]", code: .badJSON, id: nil, message: "a message must be a JSON object, not an array"),
        ErrorCase(text: "\"hello\"", code: .badJSON, id: nil, message: "a message must be a JSON object, not a string"),
        ErrorCase(text: "null", code: .badJSON, id: nil, message: "a message must be a JSON object, not null"),
        // unknown_type: missing, not a string, unknown, or a server message type
        ErrorCase(text: #"{"id":"s1"}"#, code: .unknownType, id: "s1",
                  message: #"missing field "type" (a string naming the message type)"#),
        ErrorCase(text: #"{"type":7,"id":"x"}"#, code: .unknownType, id: "x",
                  message: #"field "type" must be a string, found a number (7)"#),
        ErrorCase(text: #"{"type":"fly","id":"f1"}"#, code: .unknownType, id: "f1", message: #"unknown message type "fly""#),
        ErrorCase(text: #"{"type":"welcome"}"#, code: .unknownType, id: nil, message: #"unknown message type "welcome""#),
        // bad_request: missing or wrongly typed fields
        ErrorCase(text: #"{"type":"subscribe","path":"/todos"}"#, code: .badRequest, id: nil,
                  message: #"missing field "id" (a string)"#),
        ErrorCase(text: #"{"type":"subscribe","id":5,"path":"/todos"}"#, code: .badRequest, id: nil,
                  message: #"field "id" must be a string, found a number (5)"#),
        ErrorCase(text: #"{"type":"subscribe","id":"s1"}"#, code: .badRequest, id: "s1",
                  message: #"missing field "path" (a string)"#),
        ErrorCase(text: #"{"type":"subscribe","id":"s1","path":["todos"]}"#, code: .badRequest, id: "s1",
                  message: #"field "path" must be a string, found an array"#),
        ErrorCase(text: #"{"type":"subscribe","id":"s1","path":"/todos","since":-1}"#, code: .badRequest, id: "s1",
                  message: #"field "since" must be a non-negative 64-bit integer, found a number (-1)"#),
        ErrorCase(text: #"{"type":"subscribe","id":"s1","path":"/todos","since":1.5}"#, code: .badRequest, id: "s1",
                  message: #"field "since" must be a non-negative 64-bit integer, found a number (1.5)"#),
        ErrorCase(text: #"{"type":"subscribe","id":"s1","path":"/todos","since":"5"}"#, code: .badRequest, id: "s1",
                  message: #"field "since" must be a non-negative 64-bit integer, found a string ("5")"#),
        ErrorCase(text: #"{"type":"subscribe","id":"s1","path":"/todos","since":9223372036854775808}"#, code: .badRequest, id: "s1",
                  message: #"field "since" must be a non-negative 64-bit integer, found a number (9.223372036854776e+18)"#),
        ErrorCase(text: #"{"type":"unsubscribe"}"#, code: .badRequest, id: nil, message: #"missing field "id" (a string)"#),
        ErrorCase(text: #"{"type":"get","id":"g1"}"#, code: .badRequest, id: "g1", message: #"missing field "path" (a string)"#),
        ErrorCase(text: #"{"type":"dispatch","id":"a1"}"#, code: .badRequest, id: "a1", message: #"missing field "action" (an object)"#),
        ErrorCase(text: #"{"type":"dispatch","id":"a1","action":"addTodo"}"#, code: .badRequest, id: "a1",
                  message: #"field "action" must be an object, found a string ("addTodo")"#),
        ErrorCase(text: #"{"type":"auth","token":"a.b.c"}"#, code: .badRequest, id: nil, message: #"missing field "id" (a string)"#),
        ErrorCase(text: #"{"type":"auth","id":"t1"}"#, code: .badRequest, id: "t1", message: #"missing field "token" (a string)"#),
        ErrorCase(text: #"{"type":"auth","id":"t1","token":7}"#, code: .badRequest, id: "t1",
                  message: #"field "token" must be a string, found a number (7)"#),
        ErrorCase(text: #"{"type":"hello","token":42}"#, code: .badRequest, id: nil,
                  message: #"field "token" must be a string, found a number (42)"#),
        ErrorCase(text: #"{"type":"hello","clientId":true}"#, code: .badRequest, id: nil,
                  message: #"field "clientId" must be a string, found a boolean (true)"#),
        ErrorCase(text: #"{"type":"hello","name":{}}"#, code: .badRequest, id: nil,
                  message: #"field "name" must be a string, found an object"#),
        ErrorCase(text: #"{"type":"hello","schemaVersion":0}"#, code: .badRequest, id: nil,
                  message: #"field "schemaVersion" must be an app schema version (an integer from 1 to 1000000), found a number (0)"#),
        ErrorCase(text: #"{"type":"dispatch","id":"a1","action":{},"schemaVersion":"2"}"#, code: .badRequest, id: "a1",
                  message: #"field "schemaVersion" must be an app schema version (an integer from 1 to 1000000), found a string ("2")"#),
        // invalid_path: malformed pointers carry the message's id
        ErrorCase(text: #"{"type":"subscribe","id":"s1","path":"todos"}"#, code: .invalidPath, id: "s1",
                  message: #"invalid JSON pointer "todos": it must be empty or start with "/""#),
        ErrorCase(text: #"{"type":"subscribe","id":"s2","path":"/a~2b"}"#, code: .invalidPath, id: "s2",
                  message: #"invalid JSON pointer "/a~2b": "~" at byte 2 must be followed by "0" or "1""#),
        ErrorCase(text: ##"{"type":"get","id":"g9","path":"#/x"}"##, code: .invalidPath, id: "g9",
                  message: ##"invalid JSON pointer "#/x": it must be empty or start with "/""##),
    ]

    @Test("each malformed message gives its exact error", arguments: errorCases)
    func exactError(_ errorCase: ErrorCase) throws {
        try errorCase.expectError(from: decoder.decodeClientMessage)
    }

    @Test("bad_json carries the parser's byte offset")
    func badJSONOffset() throws {
        let error = try #require(throws: ProtocolError.self) {
            try decoder.decodeClientMessage(Array(#"{"type":"get",,}"#.utf8))
        }
        #expect(error.code == .badJSON)
        #expect(error.byteOffset == 14)
        #expect(error.message.contains("at byte 14"))
    }

    @Test("errors other than bad_json have no byte offset")
    func noOffset() throws {
        let error = try #require(throws: ProtocolError.self) {
            try decoder.decodeClientMessage(Array(#"{"type":"nope"}"#.utf8))
        }
        #expect(error.byteOffset == nil)
    }

    @Test("unknown fields are ignored and null optional fields count as absent")
    func lenientFields() throws {
        let text = #"{"type":"subscribe","id":"s1","path":"","since":null,"extra":[1,{"x":2}]}"#
        #expect(try decoder.decodeClientMessage(Array(text.utf8)) == .subscribe(id: "s1", path: .root, since: nil))
        let hello = #"{"type":"hello","name":"alice","colour":"blue"}"#
        #expect(try decoder.decodeClientMessage(Array(hello.utf8)) == .hello(clientID: nil, token: nil, name: "alice"))
    }

    @Test("the largest revision, Int64.max, is accepted")
    func largestRevision() throws {
        let text = #"{"type":"subscribe","id":"s1","path":"/a","since":9223372036854775807}"#
        #expect(try decoder.decodeClientMessage(Array(text.utf8)) == .subscribe(id: "s1", path: JSONPointer(tokens: ["a"]), since: UInt64(Int64.max)))
    }

    @Test("the protocol's examples decode")
    func protocolExamples() throws {
        let cases: [(String, ClientMessage)] = [
            (#"{"type":"hello","clientId":"c-5f2a","token":"secret","name":"alice-laptop"}"#,
             .hello(clientID: "c-5f2a", token: "secret", name: "alice-laptop")),
            (#"{"type":"subscribe","id":"s1","path":"/todos"}"#, .subscribe(id: "s1", path: JSONPointer(tokens: ["todos"]), since: nil)),
            (#"{"type":"unsubscribe","id":"s1"}"#, .unsubscribe(id: "s1")),
            (#"{"type":"get","id":"g1","path":"/counters"}"#, .get(id: "g1", path: JSONPointer(tokens: ["counters"]))),
            (#"{"type":"dispatch","id":"a17","action":{"type":"toggleTodo","id":"t7"}}"#,
             .dispatch(id: "a17", action: ["type": "toggleTodo", "id": "t7"])),
            (#"{"type":"subscribe","id":"s1","path":"/todos","since":1045}"#,
             .subscribe(id: "s1", path: JSONPointer(tokens: ["todos"]), since: 1045)),
            (#"{"type":"hello","clientId":"c-5f2a","schemaVersion":2}"#, .hello(clientID: "c-5f2a", token: nil, name: nil, schemaVersion: 2)),
            (#"{"type":"dispatch","id":"a18","schemaVersion":1,"action":{"type":"say","text":"hi"}}"#,
             .dispatch(id: "a18", action: ["type": "say", "text": "hi"], schemaVersion: 1)),
        ]
        for (text, expected) in cases {
            #expect(try decoder.decodeClientMessage(Array(text.utf8)) == expected)
        }
    }
}
