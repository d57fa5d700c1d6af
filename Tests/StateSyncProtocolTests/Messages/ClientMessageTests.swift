import StateSyncCore
import StateSyncProtocol
import Testing

@Suite("ClientMessage and ServerMessage")
struct ClientMessageTests {
    @Test("client messages name their type and id")
    func clientTypeAndID() {
        #expect(ClientMessage.hello(clientID: "c", token: nil, name: nil).id == nil)
        #expect(ClientMessage.subscribe(id: "s1", path: .root, since: nil).id == "s1")
        #expect(ClientMessage.dispatch(id: "a1", action: [:]).type == "dispatch")
        #expect(ClientMessage.get(id: "g1", path: .root).id == "g1")
        #expect(ClientMessage.unsubscribe(id: "s1").type == "unsubscribe")
    }

    @Test("server messages name their type")
    func serverType() {
        #expect(ServerMessage.ack(id: "a", rev: 1).type == "ack")
        #expect(ServerMessage.patch(id: "s", base: 1, rev: 2, ops: JSONPatch()).type == "patch")
        #expect(ServerMessage.error(id: nil, code: .badJSON, message: "m").type == "error")
    }
}
