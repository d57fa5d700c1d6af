import StateSyncProtocol
import StateSyncServer
import Testing

@Suite
struct StorePatternTests {
    @Test(arguments: [
        ("lobby", "lobby", true),
        ("lobby", "lobby2", false),
        ("team-42-*", "team-42-board", true),
        ("team-42-*", "team-42-", true),
        ("team-42-*", "team-43-board", false),
        ("*", "anything", true),
        ("*-board", "team-1-board", true),
        ("*-board", "team-1-boards", false),
        ("a*b*c", "axxbyyc", true),
        ("a*b*c", "axxbyy", false),
        ("**", "x", true),
        ("team-*-board", "team--board", true),
    ])
    func wildcardsMatchAnyRunAndOtherCharactersThemselves(pattern: String, name: String, matches: Bool) throws {
        #expect(try StorePattern(pattern).matches(StoreName(name)) == matches)
    }

    @Test(arguments: ["", "Team-*", "a b", "lobby/x", String(repeating: "a", count: 65), "é*"])
    func aPatternAgainstTheRuleIsRefusedNamingIt(text: String) {
        #expect {
            try StorePattern(text)
        } throws: { error in
            "\(error)".contains(StorePattern.rule)
        }
    }

    @Test func theBacktrackingWorstCaseAnswers() throws {
        // 32 wildcards against 64 characters that almost match: the matcher backtracks at every `*`.
        let pattern = try StorePattern(String(repeating: "*a", count: 32))
        #expect(!pattern.matches(try StoreName(String(repeating: "a", count: 63) + "b")))
        #expect(pattern.matches(try StoreName(String(repeating: "a", count: 64))))
    }
}
