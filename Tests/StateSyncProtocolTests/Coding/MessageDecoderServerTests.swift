import StateSyncCore
import StateSyncProtocol
import Testing

@Suite("MessageDecoder: server messages")
struct MessageDecoderServerTests {
    let decoder = MessageDecoder()

    static let errorCases: [ErrorCase] = [
        ErrorCase(text: #"{"type":"hello"}"#, code: .unknownType, id: nil, message: #"unknown message type "hello""#),
        ErrorCase(text: #"{"type":"welcome","session":"s-1","epoch":"e","rev":1,"role":"boss","server":"x"}"#,
                  code: .badRequest, id: nil, message: #"field "role": "boss" is not a role (reader, writer or admin)"#),
        ErrorCase(text: #"{"type":"welcome","session":"s-1","epoch":"e","role":"reader","server":"x"}"#,
                  code: .badRequest, id: nil, message: #"missing field "rev" (a non-negative 64-bit integer)"#),
        ErrorCase(text: #"{"type":"snapshot","id":"s1","rev":3}"#, code: .badRequest, id: "s1",
                  message: #"missing field "value" (any JSON value, null included)"#),
        ErrorCase(text: #"{"type":"patch","id":"s1","base":1,"rev":2}"#, code: .badRequest, id: "s1",
                  message: #"missing field "ops" (an array of JSON Patch operations)"#),
        ErrorCase(text: #"{"type":"patch","id":"s1","base":1,"rev":2,"ops":{}}"#, code: .badRequest, id: "s1",
                  message: #"field "ops" must be an array of JSON Patch operations, found an object"#),
        ErrorCase(text: #"{"type":"patch","id":"s1","base":1,"rev":2,"ops":[{"op":"jump","path":""}]}"#,
                  code: .badRequest, id: "s1", message: #"field "ops": malformed JSON patch: operation 0: unknown op "jump""#),
        ErrorCase(text: #"{"type":"patch","id":"s1","base":-3,"rev":2,"ops":[]}"#, code: .badRequest, id: "s1",
                  message: #"field "base" must be a non-negative 64-bit integer, found a number (-3)"#),
        ErrorCase(text: #"{"type":"ack","id":"a1","rev":2e3}"#, code: .badRequest, id: "a1",
                  message: #"field "rev" must be a non-negative 64-bit integer, found a number (2000.0)"#),
        ErrorCase(text: #"{"type":"reject","id":"a1","code":"not_found"}"#, code: .badRequest, id: "a1",
                  message: #"missing field "message" (a string)"#),
        ErrorCase(text: #"{"type":"error","code":"bad_json"}"#, code: .badRequest, id: nil,
                  message: #"missing field "message" (a string)"#),
        ErrorCase(text: #"{"type":"error","id":7,"code":"bad_json","message":"m"}"#, code: .badRequest, id: nil,
                  message: #"field "id" must be a string, found a number (7)"#),
    ]

    @Test("each malformed server message gives its exact error", arguments: errorCases)
    func exactError(_ errorCase: ErrorCase) throws {
        try errorCase.expectError(from: decoder.decodeServerMessage)
    }

    @Test("the protocol's examples decode")
    func protocolExamples() throws {
        let todos: JSONValue = [["id": "t7", "title": "Milk", "done": false]]
        let cases: [(String, ServerMessage)] = [
            (#"{"type":"welcome","session":"s-91","epoch":"e-3b9c","rev":1042,"role":"writer","server":"statesync/0.1.0"}"#,
             .welcome(session: "s-91", epoch: "e-3b9c", rev: 1042, role: .writer, server: "statesync/0.1.0")),
            (#"{"type":"snapshot","id":"s1","rev":1042,"value":[{"id":"t7","title":"Milk","done":false}]}"#,
             .snapshot(id: "s1", rev: 1042, value: todos)),
            (#"{"type":"patch","id":"s1","base":1042,"rev":1045,"ops":[{"op":"replace","path":"/0/done","value":true}]}"#,
             .patch(id: "s1", base: 1042, rev: 1045, ops: JSONPatch([.replace(path: JSONPointer(tokens: ["0", "done"]), value: true)]))),
            (#"{"type":"unsubscribed","id":"s1"}"#, .unsubscribed(id: "s1")),
            (#"{"type":"value","id":"g1","rev":1045,"value":{"hits":12}}"#, .value(id: "g1", rev: 1045, value: ["hits": 12])),
            (#"{"type":"ack","id":"a17","rev":1045}"#, .ack(id: "a17", rev: 1045)),
            (#"{"type":"reject","id":"a18","code":"not_found","message":"no todo with id nope"}"#,
             .reject(id: "a18", code: .notFound, message: "no todo with id nope")),
            (#"{"type":"error","code":"hello_required","message":"say hello"}"#,
             .error(id: nil, code: .helloRequired, message: "say hello")),
            (#"{"type":"snapshot","id":"s2","rev":0,"value":null}"#, .snapshot(id: "s2", rev: 0, value: .null)),
        ]
        for (text, expected) in cases {
            #expect(try decoder.decodeServerMessage(Array(text.utf8)) == expected)
        }
    }

    @Test("codes this version does not know decode as themselves")
    func unknownCodes() throws {
        let error = try decoder.decodeServerMessage(Array(#"{"type":"error","code":"new_thing","message":"m"}"#.utf8))
        #expect(error == .error(id: nil, code: ErrorCode(rawValue: "new_thing"), message: "m"))
        let reject = try decoder.decodeServerMessage(Array(#"{"type":"reject","id":"a","code":"sold_out","message":"m"}"#.utf8))
        #expect(reject == .reject(id: "a", code: RejectCode(rawValue: "sold_out"), message: "m"))
    }
}
