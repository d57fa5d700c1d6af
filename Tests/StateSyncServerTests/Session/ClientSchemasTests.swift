import StateSyncCore
import StateSyncProtocol
import StateSyncServer
import Testing

/// Which app schema versions a session may declare, and how its older
/// actions become the app's (``ClientSchemas``, ``SessionStateMachine``).
@Suite(.timeLimit(.minutes(1)))
struct ClientSchemasTests {
    static func machine(minimum: Int?) throws -> SessionStateMachine {
        SessionStateMachine(
            configuration: SessionConfiguration(), authentication: .open,
            schemas: try ClientSchemas(app: KeyValueV2App.self, minimum: minimum), now: .now)
    }

    static func send(_ text: String, to machine: inout SessionStateMachine) -> SessionStateMachine.Action {
        machine.received(text: Array(text.utf8), now: .now)
    }

    @Test func byDefaultOnlyTheAppsVersionIsAcceptedAndAHelloWithoutOneIsToo() throws {
        let schemas = try ClientSchemas(app: KeyValueV2App.self, minimum: nil)
        #expect(schemas.accepted == 2...2)
        #expect(schemas.refusal(ofHelloDeclaring: nil) == nil)
        #expect(schemas.refusal(ofHelloDeclaring: 2) == nil)
        #expect(schemas.refusal(ofHelloDeclaring: 1)?.code == .upgradeRequired)
        #expect(schemas.refusal(ofHelloDeclaring: 3)?.code == .schemaTooNew)
    }

    @Test func anOlderClientIsRefusedUpgradeRequiredAndClosedWith4426() throws {
        var machine = try Self.machine(minimum: nil)
        let action = Self.send(#"{"type":"hello","schemaVersion":1}"#, to: &machine)
        #expect(action == .replyAndClose(.error(id: nil, code: .upgradeRequired,
            message: "this client speaks app schema version 1; this server accepts version 2: upgrade the client"), closeCode: 4426))
        #expect(machine.access == nil)
    }

    @Test func aClientNewerThanTheNodeIsSentElsewhereWith1013() throws {
        var machine = try Self.machine(minimum: 1)
        let action = Self.send(#"{"type":"hello","schemaVersion":3}"#, to: &machine)
        #expect(action == .replyAndClose(.error(id: nil, code: .schemaTooNew,
            message: "this client speaks app schema version 3; this node serves version 2: connect to a node that serves it"),
            closeCode: 1013))
    }

    @Test func anAcceptedOlderSessionsActionsAreUpcastOneNamingItsVersionIsTakenAsThat() throws {
        var machine = try Self.machine(minimum: 1)
        guard case .join = Self.send(#"{"type":"hello","schemaVersion":1}"#, to: &machine) else {
            Issue.record("the hello of an accepted version joins")
            return
        }
        #expect(Self.send(#"{"type":"dispatch","id":"a1","action":{"type":"set","key":"k","value":1}}"#, to: &machine)
            == .request(.dispatch(id: "a1", action: ["type": "put", "key": "k", "value": 1])))
        // Written for version 2 already: left as it is (a `set` stays a `set`, for the app to refuse).
        #expect(Self.send(#"{"type":"dispatch","id":"a2","schemaVersion":2,"action":{"type":"set","key":"k"}}"#, to: &machine)
            == .request(.dispatch(id: "a2", action: ["type": "set", "key": "k"])))
    }

    @Test func anActionOfAVersionTheServerDoesNotKnowIsRejectedNamingIt() throws {
        var machine = try Self.machine(minimum: nil)
        _ = Self.send(#"{"type":"hello"}"#, to: &machine)
        #expect(Self.send(#"{"type":"dispatch","id":"a1","schemaVersion":5,"action":{"type":"put","key":"k"}}"#, to: &machine)
            == .reply(.reject(id: "a1", code: .invalidAction,
                message: "the action was written for app schema version 5; this server knows versions up to 2")))
    }

    @Test(arguments: [#""2""#, "0", "1.5", "1000001", "-1"])
    func aHelloWhoseSchemaVersionIsNotOneIsRefused(value: String) throws {
        var machine = try Self.machine(minimum: nil)
        let action = Self.send(#"{"type":"hello","schemaVersion":\#(value)}"#, to: &machine)
        guard case .replyAndClose(.error(_, let code, let message), _) = action else {
            Issue.record("expected a refused hello, got \(action)")
            return
        }
        #expect(code == .helloRequired)
        #expect(message.hasPrefix(#"this "hello" is invalid: field "schemaVersion" must be an app schema version"#), "\(message)")
    }

    @Test(arguments: [0, 3])
    func aMinimumOutsideTheAppsVersionsStopsTheServerNamingIt(minimum: Int) {
        #expect(throws: SchemaError.minimumClientVersionOutOfRange(minimum, version: 2)) {
            _ = try ClientSchemas(app: KeyValueV2App.self, minimum: minimum)
        }
    }
}
