import StateSyncCore
import StateSyncProtocol
import StateSyncServer
import Testing

@Suite struct ReadPermissionsTests {
    static let presenceForAdmins = ReadPermissions([try! JSONPointer(parsing: "/presence"): .admin])

    @Test(arguments: [
        ("/presence", Role.reader, false), ("/presence", .writer, false), ("/presence", .admin, true),
        ("/presence/s-1/name", .writer, false),   // inside the restricted path
        ("", .reader, false),                     // the whole state contains it
        ("/presenceful", .reader, true),          // a sibling that merely shares a prefix of characters
        ("/todos", .reader, true),
    ])
    func restrictionCoversInsideAndAround(path: String, role: Role, allowed: Bool) throws {
        #expect(Self.presenceForAdmins.allows(role, toRead: try JSONPointer(parsing: path)) == allowed)
    }

    @Test func noRestrictionsLetEveryRoleReadEverything() throws {
        for role in Role.allCases {
            #expect(ReadPermissions().allows(role, toRead: try JSONPointer(parsing: "")))
        }
    }

    @Test func sessionRefusesForbiddenSubscribeAndGetWithTheirIdsAndStaysOpen() {
        var configuration = SessionConfiguration()
        configuration.readPermissions = Self.presenceForAdmins
        var machine = SessionStateMachine(configuration: configuration, authentication: .open, now: .now)
        _ = machine.received(text: Array(#"{"type":"hello"}"#.utf8), now: .now)
        for (request, id) in [(#"{"type":"subscribe","id":"s1","path":""}"#, "s1"), (#"{"type":"get","id":"g1","path":"/presence"}"#, "g1")] {
            guard case .reply(.error(let errorID, let code, let message), _) = machine.received(text: Array(request.utf8), now: .now) else {
                Issue.record("expected an error reply to \(request)")
                continue
            }
            #expect(errorID == id)
            #expect(code == .forbidden)
            #expect(message.contains("writer"))
        }
        #expect(machine.received(text: Array(#"{"type":"get","id":"g2","path":"/todos"}"#.utf8), now: .now) == .request(.get(id: "g2", path: try! JSONPointer(parsing: "/todos"))))
    }
}
