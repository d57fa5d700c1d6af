import StateSyncProtocol
import Testing

@Suite("Role")
struct RoleTests {
    @Test("each role may do what the protocol says", arguments: [
        (Role.reader, false, false),
        (.writer, true, false),
        (.admin, true, true),
    ])
    func permissions(role: Role, dispatch: Bool, administer: Bool) {
        #expect(role.mayDispatch == dispatch)
        #expect(role.mayAdminister == administer)
    }

    @Test("roles are ordered by what they may do and spelled as on the wire")
    func orderAndSpelling() {
        #expect(Role.allCases.sorted() == [.reader, .writer, .admin])
        #expect(Role.allCases.map(\.rawValue) == ["reader", "writer", "admin"])
        #expect(Role(rawValue: "boss") == nil)
    }
}
