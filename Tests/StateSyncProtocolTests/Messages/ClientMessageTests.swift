import StateSyncCore
import StateSyncProtocol
import Testing

@Suite("ClientMessage")
struct ClientMessageTests {
    @Test("client messages name their type and id")
    func clientTypeAndID() {
        #expect(ClientMessage.hello(clientID: "c", token: nil, name: nil).id == nil)
        #expect(ClientMessage.subscribe(id: "s1", path: .root, since: nil).id == "s1")
        #expect(ClientMessage.dispatch(id: "a1", action: [:]).type == "dispatch")
        #expect(ClientMessage.get(id: "g1", path: .root).id == "g1")
        #expect(ClientMessage.unsubscribe(id: "s1").type == "unsubscribe")
    }
}
