import StateSyncCore
import Testing

@Suite("SessionCommandCoding")
struct SessionCommandCodingTests {
    private static let alice = SessionInfo(id: "s-91", name: "alice")

    /// Every command and its exact journal bytes.
    static let journal: [(SessionCommand<CounterAction>, String)] = [
        (.dispatch(.increment(by: 2), from: alice),
         #"{"action":{"by":2,"type":"increment"},"command":"dispatch","session":{"id":"s-91","name":"alice"}}"#),
        (.system(.increment(by: -1)), #"{"action":{"by":-1,"type":"increment"},"command":"system"}"#),
        (.sessionJoined(alice), #"{"command":"sessionJoined","session":{"id":"s-91","name":"alice"}}"#),
        (.sessionLeft(alice), #"{"command":"sessionLeft","session":{"id":"s-91","name":"alice"}}"#),
        (.serverStarted, #"{"command":"serverStarted"}"#),
    ]

    @Test("each command is journaled as exactly the documented bytes and read back", arguments: journal)
    func roundTrip(command: SessionCommand<CounterAction>, expected: String) throws {
        let bytes = SessionCommandCoding.encode(command)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(try SessionCommandCoding.decode(bytes, as: CounterAction.self) == command)
    }

    @Test("the action is journaled in its canonical form: unknown fields are dropped")
    func canonicalAction() throws {
        let sent = try SessionCommandCoding.decode(
            Array(#"{"action":{"by":3,"type":"increment","extra":true},"command":"system"}"#.utf8), as: CounterAction.self
        )
        #expect(String(decoding: SessionCommandCoding.encode(sent), as: UTF8.self)
            == #"{"action":{"by":3,"type":"increment"},"command":"system"}"#)
    }

    @Test("a dispatch's envelope is written byte for byte as the serializer writes the object, escapes included")
    func dispatchEnvelope() throws {
        let session = SessionInfo(id: "s-\u{1}7", name: "al\"ice\\ é\n")
        let bytes = SessionCommandCoding.encode(SessionCommand<CounterAction>.dispatch(.increment(by: 5), from: session))
        let object: JSONValue = [
            "command": "dispatch", "action": ["type": "increment", "by": 5],
            "session": ["id": .string(session.id), "name": .string(session.name)],
        ]
        #expect(bytes == JSONSerializer().serialize(object))
        #expect(try SessionCommandCoding.decode(bytes, as: CounterAction.self) == .dispatch(.increment(by: 5), from: session))
    }

    /// Bad journal entries and the error each must give.
    static let errors: [(String, SessionCommandDecodingError, String)] = [
        (#"{"session":{"id":"s","name":"n"}}"#, .noCommand(in: ["session": ["id": "s", "name": "n"]]),
         #"no "command" string in {"session":{"id":"s","name":"n"}}"#),
        (#"[1]"#, .noCommand(in: [1]), #"no "command" string in [1]"#),
        (#"{"command":"reboot"}"#, .unknownCommand("reboot"),
         #"unknown command "reboot" (expected dispatch, system, sessionJoined, sessionLeft or serverStarted)"#),
        (#"{"command":"dispatch","session":{"id":"s","name":"n"}}"#, .noAction("dispatch"),
         #"a "dispatch" command without an "action" object"#),
        (#"{"command":"system","action":"increment"}"#, .noAction("system"),
         #"a "system" command without an "action" object"#),
        (#"{"command":"dispatch","action":{"type":"increment","by":1}}"#, .noSession("dispatch"),
         #"a "dispatch" command without a "session" with string "id" and "name""#),
        (#"{"command":"sessionJoined","session":{"id":"s","name":7}}"#, .noSession("sessionJoined"),
         #"a "sessionJoined" command without a "session" with string "id" and "name""#),
        (#"{"command":"sessionLeft"}"#, .noSession("sessionLeft"),
         #"a "sessionLeft" command without a "session" with string "id" and "name""#),
        (#"{"command":"system","action":{"type":"fly"}}"#, .invalidAction("system", .invalidAction(#"unknown action type "fly""#)),
         #"the action of a "system" command does not decode: invalid_action: unknown action type "fly""#),
    ]

    @Test("a malformed entry is refused with a reason naming what is wrong", arguments: errors)
    func decodingError(journaled: String, expected: SessionCommandDecodingError, description: String) {
        #expect(throws: expected) { try SessionCommandCoding.decode(Array(journaled.utf8), as: CounterAction.self) }
        #expect(expected.description == description)
    }

    @Test("bytes that are not JSON are refused as such")
    func notJSON() throws {
        let error = try #require(throws: SessionCommandDecodingError.self) {
            try SessionCommandCoding.decode(Array("{\"command\":".utf8), as: CounterAction.self)
        }
        #expect(error.description.hasPrefix("a journaled command is not JSON: "))
    }
}
