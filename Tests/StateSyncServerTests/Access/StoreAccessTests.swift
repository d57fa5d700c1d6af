import StateSyncProtocol
import StateSyncServer
import Testing

@Suite
struct StoreAccessTests {
    @Test func theMostSpecificPatternDecides() throws {
        let access = StoreAccess(grants: [
            try StorePattern("*"): .reader,
            try StorePattern("team-42-*"): .writer,
            try StorePattern("team-42-audit"): .reader,
            try StorePattern("team-42-admin-*"): .admin,
        ])
        #expect(access.role(in: try StoreName("lobby")) == .reader)
        #expect(access.role(in: try StoreName("team-42-board")) == .writer)
        #expect(access.role(in: try StoreName("team-42-audit")) == .reader, "an exact name beats every wildcard")
        #expect(access.role(in: try StoreName("team-42-admin-x")) == .admin, "more literal characters beat fewer")
        #expect(access.highestRole == .admin)
    }

    @Test func equallySpecificPatternsGiveTheLowerRole() throws {
        let access = StoreAccess(grants: [try StorePattern("a-*"): .admin, try StorePattern("*-b"): .reader])
        #expect(access.role(in: try StoreName("a-b")) == .reader)
    }

    @Test func aStoreNoPatternMatchesHasNoRole() throws {
        let access = StoreAccess(grants: [try StorePattern("team-42-*"): .writer])
        #expect(access.role(in: .main) == nil)
        #expect(access.role(in: try StoreName("team-4")) == nil)
    }

    @Test func everyStoreGrantsTheRoleEverywhere() throws {
        #expect(StoreAccess.everyStore(.reader).role(in: try StoreName("x")) == .reader)
        #expect(StoreAccess.everyStore(.admin).role(in: .main) == .admin)
    }
}
