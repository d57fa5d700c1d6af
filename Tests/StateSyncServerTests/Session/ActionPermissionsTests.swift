import StateSyncCore
import StateSyncProtocol
import StateSyncServer
import Testing

@Suite(.timeLimit(.minutes(1))) struct ActionPermissionsTests {
    static let resetForAdmins = ActionPermissions(["resetCounter": .admin])

    @Test(arguments: [
        ("resetCounter", Role.writer, false), ("resetCounter", .admin, true),
        ("increment", .writer, true),          // not restricted
        ("resetCounterX", .writer, true),      // another type that merely shares a prefix
    ])
    func onlyTheRestrictedTypeNeedsItsRole(type: String, role: Role, allowed: Bool) {
        let action: JSONObject = ["type": .string(type), "counter": "hits"]
        #expect((Self.resetForAdmins.refusal(of: action, by: role) == nil) == allowed)
    }

    @Test func anActionWithoutATypeIsLeftToTheApp() {
        #expect(Self.resetForAdmins.refusal(of: ["counter": "hits"], by: .reader) == nil)
        #expect(Self.resetForAdmins.refusal(of: ["type": 3], by: .reader) == nil)
    }

    @Test func sessionRejectsARestrictedDispatchWithItsIdAndStaysOpen() throws {
        var configuration = SessionConfiguration()
        configuration.actionPermissions = Self.resetForAdmins
        var machine = SessionStateMachine(configuration: configuration, authentication: .open, now: .now)
        _ = machine.received(text: Array(#"{"type":"hello"}"#.utf8), now: .now)
        let reset = #"{"type":"dispatch","id":"a1","action":{"type":"resetCounter","counter":"hits"}}"#
        #expect(machine.received(text: Array(reset.utf8), now: .now) == .reply(.reject(
            id: "a1", code: .forbidden, message: "action resetCounter needs role admin or above; this session's role is writer")))
        let increment = #"{"type":"dispatch","id":"a2","action":{"type":"increment","counter":"hits"}}"#
        #expect(machine.received(text: Array(increment.utf8), now: .now)
            == .request(.dispatch(id: "a2", action: ["type": "increment", "counter": "hits"])))
    }
}
