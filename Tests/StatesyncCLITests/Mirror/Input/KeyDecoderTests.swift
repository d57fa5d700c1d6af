import Testing
@testable import statesync

@Suite struct KeyDecoderTests {
    @Test func textControlKeysAndEscapeSequences() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("add Milk\r".utf8)) == [.text("add Milk"), .enter])
        #expect(decoder.feed([0x7F, 0x08, 0x15, 0x17, 0x03, 0x04]) == [.backspace, .backspace, .clearLine, .deleteWord, .interrupt, .endOfInput])
        // Arrow keys (CSI and SS3 forms) and Alt-x are skipped.
        #expect(decoder.feed(Array("a\u{1B}[A\u{1B}[1;5Cb\u{1B}OPc\u{1B}xd".utf8)) == [.text("a"), .text("b"), .text("c"), .text("d")])
    }

    @Test func aCharacterSplitAcrossReadsIsKeptUntilComplete() {
        var decoder = KeyDecoder()
        let bytes = Array("é✓🥛".utf8)   // 2, 3 and 4 bytes
        var keys: [Key] = []
        for byte in bytes { keys += decoder.feed([byte]) }
        #expect(keys == [.text("é"), .text("✓"), .text("🥛")])
    }

    @Test func anEscapeSequenceSplitAcrossReadsIsStillSkipped() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.feed(Array("[B".utf8)) == [])
        #expect(decoder.feed(Array("x".utf8)) == [.text("x")])
    }
}
