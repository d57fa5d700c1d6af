import StateSyncCore
import StateSyncProtocol
import Testing

@Suite("MessageDecoder: server messages with their store")
struct MessageDecoderServerStoresTests {
    let decoder = MessageDecoder()

    static let errorCases: [ErrorCase] = [
        ErrorCase(text: #"{"type":"ack","store":"Team","id":"a1","rev":2}"#, code: .invalidStore, id: "a1",
                  message: #"invalid store "Team": "# + StoreName.rule),
        ErrorCase(text: #"{"type":"ack","store":7,"id":"a1","rev":2}"#, code: .badRequest, id: "a1",
                  message: #"field "store" must be a string, found a number (7)"#),
        ErrorCase(text: #"{"type":"snapshot","store":"t","id":"s1","epoch":1,"rev":2,"value":null}"#, code: .badRequest, id: "s1",
                  message: #"field "epoch" must be a string, found a number (1)"#),
        ErrorCase(text: #"{"type":"patch","store":"t","id":"s1","base":1,"rev":2}"#, code: .badRequest, id: "s1",
                  message: #"missing field "ops" (an array of JSON Patch operations)"#),
    ]

    @Test("each malformed message gives its exact error", arguments: errorCases)
    func exactError(_ errorCase: ErrorCase) throws {
        try errorCase.expectError(from: decoder.decodeStoreScopedServerMessage)
    }

    @Test("the Stores section's examples decode with their store and epoch")
    func protocolExamples() throws {
        let team = try StoreName("team-42")
        let cases: [(String, StoreScopedServerMessage)] = [
            (#"{"type":"snapshot","store":"team-42","id":"s1","epoch":"e-7c1d","rev":12,"value":[]}"#,
             StoreScopedServerMessage(message: .snapshot(id: "s1", rev: 12, value: []), store: team, epoch: "e-7c1d")),
            (#"{"type":"patch","store":"team-42","id":"s1","base":12,"rev":13,"ops":[]}"#,
             StoreScopedServerMessage(message: .patch(id: "s1", base: 12, rev: 13, ops: JSONPatch([])), store: team)),
            (#"{"type":"ack","store":"team-42","id":"a1","rev":13}"#,
             StoreScopedServerMessage(message: .ack(id: "a1", rev: 13), store: team)),
            (#"{"type":"value","store":"team-42","id":"g1","epoch":"e-7c1d","rev":13,"value":{"hits":1}}"#,
             StoreScopedServerMessage(message: .value(id: "g1", rev: 13, value: ["hits": 1]), store: team, epoch: "e-7c1d")),
            (#"{"type":"error","store":"team-42","id":"s9","code":"forbidden","message":"m"}"#,
             StoreScopedServerMessage(message: .error(id: "s9", code: .forbidden, message: "m"), store: team)),
        ]
        for (text, expected) in cases {
            #expect(try decoder.decodeStoreScopedServerMessage(Array(text.utf8)) == expected)
        }
    }

    @Test("main's messages carry neither store nor epoch; welcome's epoch stays in the message")
    func mainMessages() throws {
        let snapshot = try decoder.decodeStoreScopedServerMessage(Array(#"{"type":"snapshot","id":"s1","rev":3,"value":1}"#.utf8))
        #expect(snapshot == StoreScopedServerMessage(message: .snapshot(id: "s1", rev: 3, value: 1), store: .main, epoch: nil))
        let welcome = #"{"type":"welcome","session":"s-1","epoch":"e-1","rev":4,"role":"writer","server":"x"}"#
        let decoded = try decoder.decodeStoreScopedServerMessage(Array(welcome.utf8))
        #expect(decoded.store == .main)
        #expect(decoded.epoch == nil)
        #expect(decoded.message == .welcome(session: "s-1", epoch: "e-1", rev: 4, role: .writer, server: "x"))
    }

    @Test("an epoch on a message that carries none is not read")
    func epochOnlyOnSnapshotAndValue() throws {
        let ack = try decoder.decodeStoreScopedServerMessage(Array(#"{"type":"ack","store":"t","id":"a","epoch":"e","rev":1}"#.utf8))
        #expect(ack.epoch == nil)
    }

    @Test("what MessageEncoder(store:epoch:) writes decodes as it was", arguments: [StoreName.main, try! StoreName("team-42")])
    func roundTrip(_ store: StoreName) throws {
        let encoder = MessageEncoder(store: store, epoch: "e-9")
        let epoch: String? = store.isMain ? nil : "e-9"
        let cases: [(ServerMessage, String?)] = [
            (.snapshot(id: "s1", rev: 5, value: ["a": 1]), epoch),
            (.patch(id: "s1", base: 5, rev: 6, ops: JSONPatch([.replace(path: .root, value: 2)])), nil),
            (.unsubscribed(id: "s1"), nil),
            (.value(id: "g1", rev: 6, value: .null), epoch),
            (.ack(id: "a1", rev: 6), nil),
            (.reject(id: "a2", code: .notFound, message: "no"), nil),
            (.error(id: "s2", code: .forbidden, message: "no"), nil),
        ]
        for (message, expectedEpoch) in cases {
            let decoded = try decoder.decodeStoreScopedServerMessage(encoder.encode(message))
            #expect(decoded == StoreScopedServerMessage(message: message, store: store, epoch: expectedEpoch))
        }
    }
}
