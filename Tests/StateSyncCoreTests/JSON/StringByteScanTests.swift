import Testing
@testable import StateSyncCore

/// Long strings are scanned eight bytes at a time (``StringByteScan``): a
/// byte that matters (a quote, a backslash, a control character, a
/// multi-byte UTF-8 sequence) is found at every offset of a word, by the
/// parser and by the serializer, and the plain runs around it are kept.
@Suite(.timeLimit(.minutes(1)))
struct StringByteScanTests {
    /// A plain run of `count` bytes (varied, so no word repeats the same byte).
    private static func plain(_ count: Int) -> String {
        String((0..<count).map { Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
    }

    static let specials: [(text: String, json: String)] = [
        ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{01}", #"\u0001"#), ("\u{1F}", #"\u001f"#),
        ("é", "é"), ("€", "€"), ("🙂", "🙂"), ("\u{7F}", "\u{7F}"), (" ", " "),
    ]

    @Test(arguments: 0..<24)
    func everySpecialByteIsFoundAtEveryOffset(offset: Int) throws {
        for (text, json) in Self.specials {
            let value = Self.plain(offset) + text + Self.plain(21)
            let document = "\"" + Self.plain(offset) + json + Self.plain(21) + "\""
            #expect(try JSONParser().parse(Array(document.utf8)) == .string(value), "parsing \(document.debugDescription)")
            #expect(JSONSerializer().serialize(.string(value)) == Array(document.utf8), "serializing \(value.debugDescription)")
        }
    }

    @Test(arguments: 0..<24)
    func aStringEndingOrBrokenAtAnyOffsetIsFound(offset: Int) throws {
        let ended = "[\"" + Self.plain(offset) + "\",\"" + Self.plain(9) + "\"]"
        #expect(try JSONParser().parse(Array(ended.utf8)) == .array([.string(Self.plain(offset)), .string(Self.plain(9))]))
        var broken = Array(("\"" + Self.plain(offset + 16) + "\"").utf8)
        broken[1 + offset] = 0xFF   // not UTF-8
        #expect(throws: JSONParseError.self) { try JSONParser().parse(broken) }
        var raw = Array(("\"" + Self.plain(offset + 16) + "\"").utf8)
        raw[1 + offset] = 0x0A   // a raw newline inside a string
        #expect(throws: JSONParseError.self) { try JSONParser().parse(raw) }
        #expect(throws: JSONParseError.self) { try JSONParser().parse(Array(("\"" + Self.plain(offset + 16)).utf8)) }
    }
}
