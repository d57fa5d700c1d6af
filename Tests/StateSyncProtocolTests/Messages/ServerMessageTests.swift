import StateSyncCore
import StateSyncProtocol
import Testing

@Suite("ServerMessage")
struct ServerMessageTests {
    @Test("server messages name their type")
    func serverType() {
        #expect(ServerMessage.ack(id: "a", rev: 1).type == "ack")
        #expect(ServerMessage.patch(id: "s", base: 1, rev: 2, ops: JSONPatch()).type == "patch")
        #expect(ServerMessage.error(id: nil, code: .badJSON, message: "m").type == "error")
    }
}
