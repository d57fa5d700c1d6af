import Testing
import StateSyncCore

@Suite struct JSONParserTests {
    @Test(arguments: [
        ("null", JSONValue.null),
        ("true", .bool(true)),
        (" false ", .bool(false)),
        ("0", .integer(0)),
        ("-0", .integer(0)),
        ("-12", .integer(-12)),
        ("9223372036854775807", .integer(.max)),
        ("-9223372036854775808", .integer(.min)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808)),
        ("1.5", .double(1.5)),
        ("2.0", .double(2)),
        ("1e3", .double(1000)),
        ("-1.25E-2", .double(-0.0125)),
        ("1E+2", .double(100)),
        ("0.1", .double(0.1)),
        (#""a\"b\\c\/d\b\f\n\r\t""#, .string("a\"b\\c/d\u{8}\u{C}\n\r\t")),
        (#""\u00e9\u20AC\ud83d\ude00""#, .string("é€😀")),
        ("\"é€😀\"", .string("é€😀")),
        (" [ 1 , [ ] , { } ] ", .array([1, [], [:]])),
        (#"{"b":1,"a":{"c":[true]}}"#, ["a": ["c": [true]], "b": 1]),
    ] as [(String, JSONValue)])
    func parsesValidJSON(text: String, expected: JSONValue) throws {
        let value = try JSONValue(parsing: text)
        #expect(value == expected)
        // Integers stay integers and doubles stay doubles.
        #expect(value.description == expected.description)
    }

    @Test func parsesDoublesExactlyLikeTheStandardLibrary() throws {
        for text in ["3.141592653589793", "1.7976931348623157e308", "5e-324", "123456789012345678901234567890",
                     "0.30000000000000004", "2.2250738585072014e-308", "1e22", "1e23", "9007199254740993.0"] {
            #expect(try JSONValue(parsing: text) == .double(Double(text)!), "\(text)")
        }
    }

    @Test func objectKeysAreSortedByUTF8() throws {
        let value = try JSONValue(parsing: #"{"z":1,"é":2,"B":3,"a":4}"#)
        #expect(value.objectValue.map { Array($0.keys) } == ["B", "a", "z", "é"])
    }

    @Test(arguments: [
        ("", "unexpected end of input at byte 0: expected a value"),
        ("[1,]", "trailing comma at byte 2"),
        (#"{"a":1,}"#, "trailing comma at byte 6"),
        ("01", "number with a leading zero at byte 0"),
        ("-01", "number with a leading zero at byte 0"),
        ("NaN", "unexpected character 'N' at byte 0: expected a value"),
        ("-Infinity", "invalid number at byte 1: expected a digit"),
        ("1.", "invalid number at byte 2: expected a digit after '.'"),
        (".5", "unexpected character '.' at byte 0: expected a value"),
        ("1e", "invalid number at byte 2: expected a digit in the exponent"),
        ("1e400", "number 1e400 at byte 0 is out of range for a double"),
        ("[1] x", "unexpected data after the JSON value at byte 4"),
        ("[1 2]", "unexpected character '2' at byte 3: expected ',' or ']'"),
        (#"{"a" 1}"#, "unexpected character '1' at byte 5: expected ':'"),
        ("{1:2}", "unexpected character '1' at byte 1: expected a string key"),
        ("tru", "unexpected end of input at byte 3: expected \"true\""),
        ("nul1", "unexpected character '1' at byte 3: expected \"null\""),
        ("\"abc", "unterminated string starting at byte 0"),
        ("[\"a\nb\"]", "unescaped control character 0x0A in a string at byte 3"),
        (#""\q""#, #"invalid escape "\q" at byte 1"#),
        (#""\u12G4""#, "invalid \\u escape at byte 5: expected four hex digits"),
        (#""\ud800""#, "unpaired surrogate \\ud800 at byte 1"),
        (#""\ud800\u0041""#, "unpaired surrogate \\ud800 at byte 1"),
        (#""\udc00""#, "unpaired surrogate \\udc00 at byte 1"),
        (#"{"op":"add","path":"/a","op":"remove"}"#, "duplicate key \"op\" in the object starting at byte 0"),
        (#"{"b":1,"a":2,"b":3}"#, "duplicate key \"b\" in the object starting at byte 0"),
        ("\u{FEFF}1", "unexpected byte 0xEF at byte 0: expected a value"),
        (#"{"\u00e9":1,"e\u0301":2}"#, "duplicate key \"e\u{301}\" in the object starting at byte 0"),
    ])
    func rejectsInvalidJSON(text: String, message: String) {
        #expect { try JSONValue(parsing: text) } throws: { error in
            (error as? JSONParseError)?.description == message
        }
    }

    @Test(arguments: [
        ([0x22, 0x61, 0xFF, 0x22], "invalid UTF-8 at byte 2"),  // invalid lead byte
        ([0x22, 0xC3, 0x28, 0x22], "invalid UTF-8 at byte 2"),  // bad continuation
        ([0x22, 0xC0, 0xAF, 0x22], "invalid UTF-8 at byte 1"),  // overlong "/"
        ([0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8 at byte 2"),  // encoded surrogate
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "invalid UTF-8 at byte 2"),  // above U+10FFFF
        ([0x22, 0xE2, 0x82], "invalid UTF-8 at byte 3"),  // truncated
        ([0x22, 0x5C, 0x6E, 0xE2, 0x28, 0xA1, 0x22], "invalid UTF-8 at byte 4"),  // after an escape
    ] as [([UInt8], String)])
    func rejectsInvalidUTF8WithItsOffset(bytes: [UInt8], message: String) {
        #expect { try JSONParser().parse(bytes) } throws: { error in
            (error as? JSONParseError)?.description == message
        }
    }

    @Test func errorsCarryTheByteOffset() {
        let error = #expect(throws: JSONParseError.self) {
            try JSONValue(parsing: #"{"title":"caf"# + "\u{1}" + #""}"#)
        }
        #expect(error?.byteOffset == 13)
    }

    @Test func depthLimitStopsDeepNestingWithoutCrashing() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect { try JSONValue(parsing: deep) } throws: { error in
            (error as? JSONParseError)?.description == "nesting deeper than 512 levels at byte 512"
        }
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        _ = try JSONValue(parsing: ok)
        let limited = JSONParser(limits: .init(maxDepth: 2))
        _ = try limited.parse("[[1]]")
        #expect(throws: JSONParseError.self) { try limited.parse(#"[{"a":[1]}]"#) }
    }

    @Test func sizeLimitRejectsLargeInputBeforeParsing() {
        let parser = JSONParser(limits: .init(maxInputBytes: 8))
        #expect { try parser.parse("[1,2,3,4,5]") } throws: { error in
            (error as? JSONParseError)?.description == "input of 11 bytes exceeds the limit of 8 bytes"
        }
    }

    @Test func parsesFromEveryInputForm() throws {
        let text = #"{"a":[1,"x"]}"#
        let expected: JSONValue = ["a": [1, "x"]]
        #expect(try JSONParser().parse(text) == expected)
        #expect(try JSONParser().parse(Array(text.utf8)) == expected)
        #expect(try JSONParser().parse(Array(text.utf8)[...]) == expected)
        #expect(try JSONParser().parse(text.utf8) == expected)
        let bytes = Array(text.utf8)
        #expect(try bytes.withUnsafeBytes { try JSONParser().parse($0) } == expected)
    }
}

@Suite(.timeLimit(.minutes(1))) struct JSONParserDepthTests {
    /// Documents nested to the default limit, alternating arrays and objects.
    private static func nested(depth: Int) -> String {
        var text = ""
        for level in 0..<depth { text += level % 2 == 0 ? "[" : #"{"k":"# }
        text += "1"
        for level in (0..<depth).reversed() { text += level % 2 == 0 ? "]" : "}" }
        return text
    }

    @Test func maximumDepthWorksOnATaskThreadAndEverythingRecursiveCopesWithIt() async throws {
        let text = Self.nested(depth: 512)
        let value = try await Task.detached { try JSONValue(parsing: text) }.value
        let roundTrip = try await Task.detached { () -> Bool in
            let serialized = JSONSerializer().string(for: value)
            let pretty = JSONSerializer(style: .pretty).string(for: value)
            let reparsed = try JSONValue(parsing: serialized)
            let encoded = try JSONValueEncoder().encode(value)
            let decoded = try JSONValueDecoder().decode(JSONValue.self, from: encoded)
            return reparsed == value && decoded.hashValue == value.hashValue && serialized == text && pretty.count > text.count
                && JSONPatch.diff(from: value, to: reparsed).isEmpty
        }.value
        #expect(roundTrip)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: Self.nested(depth: 513)) }
    }
}
