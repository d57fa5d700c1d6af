import StateSyncCore
import StateSyncProtocol
import Testing

@Suite("MessageEncoder")
struct MessageEncoderTests {
    let encoder = MessageEncoder()
    let decoder = MessageDecoder()

    static let todosPatch = JSONPatch([
        .replace(path: JSONPointer(tokens: ["0", "done"]), value: true),
        .add(path: JSONPointer(tokens: ["-"]), value: ["id": "t9", "title": "Eggs \"free range\"", "done": false]),
        .remove(path: JSONPointer(tokens: ["3"])),
        .move(from: JSONPointer(tokens: ["1"]), path: JSONPointer(tokens: ["2"])),
        .copy(from: JSONPointer(tokens: ["a/b"]), path: JSONPointer(tokens: ["c~d"])),
        .test(path: .root, value: [1, 2.5, nil]),
    ])

    static let clientMessages: [ClientMessage] = [
        .hello(clientID: "c-5f2a", token: "secret", name: "alice-laptop"),
        .hello(clientID: nil, token: nil, name: nil),
        .hello(clientID: nil, token: "t", name: "Zoë 🎉"),
        .hello(clientID: "c", token: nil, name: nil, schemaVersion: 3),
        .subscribe(id: "s1", path: JSONPointer(tokens: ["todos"]), since: nil),
        .subscribe(id: "s1", path: JSONPointer(tokens: ["a/b", "~"]), since: 1045),
        .subscribe(id: "", path: .root, since: UInt64(Int64.max)),
        .unsubscribe(id: "s1"),
        .get(id: "g1", path: JSONPointer(tokens: ["counters", "hits"])),
        .dispatch(id: "a17", action: ["type": "toggleTodo", "id": "t7"]),
        .dispatch(id: "a19", action: ["type": "say"], schemaVersion: 1),
        .dispatch(id: "a\n\"18\"", action: ["type": "x", "nested": ["deep": [1, [2, [3]]], "n": nil]]),
        .auth(id: "t1", token: "eyJ.eyJ.sig"),
    ]

    static let serverMessages: [ServerMessage] = [
        .welcome(session: "s-91", epoch: "e-3b9c", rev: 1042, role: .writer, server: "statesync/0.1.0"),
        .welcome(session: "s", epoch: "e", rev: 0, role: .reader, server: "x"),
        .welcome(session: "s", epoch: "e", rev: 7, role: .admin, server: "x"),
        .welcome(session: "s", epoch: "e", rev: 7, role: nil, server: "x"),
        .authorized(id: "t1", role: .reader, expires: 1_764_288_000),
        .authorized(id: "t2", role: nil, expires: nil),
        .snapshot(id: "s1", rev: 1042, value: [["id": "t7", "title": "Milk", "done": false]]),
        .snapshot(id: "s2", rev: 0, value: .null),
        .patch(id: "s1", base: 1042, rev: 1045, ops: todosPatch),
        .patch(id: "s1", base: 9, rev: 10, ops: JSONPatch()),
        .unsubscribed(id: "s1"),
        .value(id: "g1", rev: 1045, value: ["hits": 12]),
        .value(id: "g2", rev: UInt64(Int64.max), value: "ünïcødé \u{0}\u{1F}"),
        .ack(id: "a17", rev: 1045),
        .reject(id: "a18", code: .notFound, message: "no todo with id nope"),
        .reject(id: "a19", code: RejectCode(rawValue: "sold_out"), message: "m"),
        .error(id: nil, code: .helloRequired, message: "say hello"),
        .error(id: "s1", code: .invalidPath, message: "bad"),
    ]

    @Test("client messages round-trip", arguments: clientMessages)
    func clientRoundTrip(_ message: ClientMessage) throws {
        #expect(try decoder.decodeClientMessage(encoder.encode(message)) == message)
    }

    @Test("server messages round-trip", arguments: serverMessages)
    func serverRoundTrip(_ message: ServerMessage) throws {
        #expect(try decoder.decodeServerMessage(encoder.encode(message)) == message)
    }

    @Test("every message type is covered by the round-trip tables")
    func coverage() {
        #expect(Set(Self.clientMessages.map(\.type)) == ["hello", "subscribe", "unsubscribe", "get", "dispatch", "auth"])
        #expect(Set(Self.serverMessages.map(\.type))
            == ["welcome", "snapshot", "patch", "unsubscribed", "value", "ack", "reject", "error", "authorized"])
    }

    @Test("frames have type first and the protocol's field order")
    func exactBytes() {
        let cases: [(ServerMessage, String)] = [
            (.welcome(session: "s-91", epoch: "e-3b9c", rev: 1042, role: .writer, server: "statesync/0.1.0"),
             #"{"type":"welcome","session":"s-91","epoch":"e-3b9c","rev":1042,"role":"writer","server":"statesync/0.1.0"}"#),
            (.snapshot(id: "s1", rev: 1042, value: [["id": "t7", "title": "Milk", "done": false]]),
             #"{"type":"snapshot","id":"s1","rev":1042,"value":[{"done":false,"id":"t7","title":"Milk"}]}"#),
            (.patch(id: "s1", base: 1042, rev: 1045, ops: JSONPatch([.replace(path: JSONPointer(tokens: ["0", "done"]), value: true)])),
             #"{"type":"patch","id":"s1","base":1042,"rev":1045,"ops":[{"op":"replace","path":"/0/done","value":true}]}"#),
            (.unsubscribed(id: "s1"), #"{"type":"unsubscribed","id":"s1"}"#),
            (.value(id: "g1", rev: 1045, value: ["hits": 12]), #"{"type":"value","id":"g1","rev":1045,"value":{"hits":12}}"#),
            (.ack(id: "a17", rev: 1045), #"{"type":"ack","id":"a17","rev":1045}"#),
            (.reject(id: "a18", code: .notFound, message: "no todo with id nope"),
             #"{"type":"reject","id":"a18","code":"not_found","message":"no todo with id nope"}"#),
            (.error(id: nil, code: .badJSON, message: "m"), #"{"type":"error","code":"bad_json","message":"m"}"#),
            (.error(id: "x\"1", code: .badRequest, message: "m"), #"{"type":"error","id":"x\"1","code":"bad_request","message":"m"}"#),
            (.welcome(session: "s-9", epoch: "e", rev: 3, role: nil, server: "x"),
             #"{"type":"welcome","session":"s-9","epoch":"e","rev":3,"server":"x"}"#),
            (.authorized(id: "t1", role: .writer, expires: 1_764_288_000),
             #"{"type":"authorized","id":"t1","role":"writer","expires":1764288000}"#),
            (.authorized(id: "t2", role: nil, expires: nil), #"{"type":"authorized","id":"t2"}"#),
        ]
        for (message, text) in cases {
            #expect(String(decoding: encoder.encode(message), as: UTF8.self) == text)
        }
    }

    @Test("client frames have type first and omit absent optional fields")
    func exactClientBytes() {
        let cases: [(ClientMessage, String)] = [
            (.hello(clientID: "c-5f2a", token: nil, name: "alice"), #"{"type":"hello","clientId":"c-5f2a","name":"alice"}"#),
            (.hello(clientID: nil, token: nil, name: nil), #"{"type":"hello"}"#),
            (.subscribe(id: "s1", path: JSONPointer(tokens: ["todos"]), since: 1045),
             #"{"type":"subscribe","id":"s1","path":"/todos","since":1045}"#),
            (.get(id: "g1", path: .root), #"{"type":"get","id":"g1","path":""}"#),
            (.auth(id: "t1", token: "a.b.c"), #"{"type":"auth","id":"t1","token":"a.b.c"}"#),
            (.dispatch(id: "a17", action: ["type": "toggleTodo", "id": "t7"]),
             #"{"type":"dispatch","id":"a17","action":{"id":"t7","type":"toggleTodo"}}"#),
        ]
        for (message, text) in cases {
            #expect(String(decoding: encoder.encode(message), as: UTF8.self) == text)
        }
    }

    @Test("encoding appends to the buffer it is given")
    func appends() {
        var bytes = Array("prefix".utf8)
        encoder.encode(ServerMessage.ack(id: "a", rev: 1), into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"prefix{"type":"ack","id":"a","rev":1}"#)
    }

    @Test("revisions are written exactly at the edges", arguments: [UInt64(0), 9, 10, 99, 100, 1045, UInt64(Int64.max), UInt64.max])
    func revisionDigits(_ rev: UInt64) {
        let text = String(decoding: encoder.encode(ServerMessage.ack(id: "a", rev: rev)), as: UTF8.self)
        #expect(text == #"{"type":"ack","id":"a","rev":\#(rev)}"#)
    }
}
