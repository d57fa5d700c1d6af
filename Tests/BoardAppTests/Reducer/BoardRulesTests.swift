import BoardApp
import StateSyncCore
import Testing

@Suite("BoardRules: lengths count Unicode scalars")
struct BoardRulesTests {
    /// `count` copies of `unit`, whatever its scalar count.
    private func text(_ unit: String, _ count: Int) -> String {
        String(repeating: unit, count: count)
    }

    @Test("titles: 200 scalars pass, 201 fail, for ASCII, emoji and astral text",
          arguments: ["x", "é", "🎉", "𝔸"])
    func titleBoundary(_ unit: String) throws {
        try BoardRules.checkTitle(text(unit, 200))
        let error = try #require(throws: Rejection.self) { try BoardRules.checkTitle(text(unit, 201)) }
        #expect(error == .invalidAction("title is 201 characters long; the limit is 200"))
    }

    @Test("a combining sequence counts each scalar: 100 × (e + U+0301) is 200, 101 is 202")
    func combiningScalars() throws {
        let decomposed = "e\u{301}"
        #expect(text(decomposed, 101).count == 101)   // 101 Characters...
        try BoardRules.checkTitle(text(decomposed, 100))
        let error = try #require(throws: Rejection.self) { try BoardRules.checkTitle(text(decomposed, 101)) }
        #expect(error.message == "title is 202 characters long; the limit is 200")   // ...but 202 scalars
    }

    @Test("a family emoji is one Character but seven scalars")
    func zwjSequence() throws {
        let family = "👨‍👩‍👧‍👦"
        #expect(family.count == 1)
        #expect(family.unicodeScalars.count == 7)
        let error = try #require(throws: Rejection.self) { try BoardRules.checkTitle(text(family, 29)) }
        #expect(error.message == "title is 203 characters long; the limit is 200")
        try BoardRules.checkTitle(text(family, 28) + "1234")
    }

    @Test("chat texts: 500 scalars pass, 501 fail")
    func messageBoundary() throws {
        try BoardRules.checkMessage(text("é", 500))
        let error = try #require(throws: Rejection.self) { try BoardRules.checkMessage(text("é", 501)) }
        #expect(error == .invalidAction("text is 501 characters long; the limit is 500"))
    }

    @Test("a single space is not empty (no trimming)")
    func whitespace() throws {
        try BoardRules.checkTitle(" ")
        try BoardRules.checkMessage(" ")
    }

    @Test("increments: abs(by) up to 1,000,000 pass", arguments: [Int64(1_000_000), -1_000_000, 0, 1, -1])
    func incrementBoundary(_ by: Int64) throws {
        try BoardRules.checkIncrement(counter: "c", by: by)
    }
}
