import StateSyncProtocol
import Testing

@Suite("Role")
struct RoleTests {
    @Test("each role may do what the protocol says", arguments: [
        (Role.reader, true, false, false),
        (.writer, true, true, false),
        (.admin, true, true, true),
    ])
    func permissions(role: Role, read: Bool, dispatch: Bool, administer: Bool) {
        #expect(role.mayRead == read)
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
