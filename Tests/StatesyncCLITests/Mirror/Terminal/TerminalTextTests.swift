import Testing
@testable import statesync

@Suite struct TerminalTextTests {
    @Test func controlCharactersAreReplaced() {
        #expect(TerminalText.sanitize("a\u{1B}[31mb\nc\u{7F}\u{9B}") == "a�[31mb�c��")
        #expect(TerminalText.sanitize("Milk ✓ 牛乳") == "Milk ✓ 牛乳")
    }

    @Test func widthsCountCells() {
        #expect(TerminalText.width(of: "Milk") == 4)
        #expect(TerminalText.width(of: "牛乳") == 4)
        #expect(TerminalText.width(of: "🥛") == 2)
        #expect(TerminalText.width(of: "e\u{301}") == 1)
    }

    @Test func fitCutsWithAnEllipsisOrPads() {
        #expect(TerminalText.fit("Milk", width: 6) == "Milk  ")
        #expect(TerminalText.fit("Milk and eggs", width: 6) == "Milk …")
        #expect(TerminalText.fit("牛乳牛乳", width: 5) == "牛乳…")
        #expect(TerminalText.fit("牛乳牛乳", width: 4) == "牛… ")
        #expect(TerminalText.fit("anything", width: 0) == "")
        #expect(TerminalText.tail("add Milk", width: 4) == "Milk")
    }
}
