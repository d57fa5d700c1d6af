import Testing
import StateSyncCore

@Suite struct JSONSerializerTests {
    @Test func compactHasNoWhitespaceAndSortedKeys() {
        let value: JSONValue = ["b": [1, true, nil], "a": ["y": "z"], "c": [:], "d": []]
        #expect(JSONSerializer().string(for: value) == #"{"a":{"y":"z"},"b":[1,true,null],"c":{},"d":[]}"#)
    }

    @Test func prettyIndentsByTwoSpaces() {
        let value: JSONValue = ["b": [1, 2], "a": [:], "c": []]
        let expected = """
        {
          "a": {},
          "b": [
            1,
            2
          ],
          "c": []
        }
        """
        #expect(JSONSerializer(style: .pretty).string(for: value) == expected)
        #expect(JSONSerializer(style: .pretty).string(for: 1) == "1")
    }

    @Test(arguments: [
        ("plain", #""plain""#),
        ("quote\" backslash\\ slash/", #""quote\" backslash\\ slash/""#),
        ("\n\r\t\u{8}\u{C}", #""\n\r\t\b\f""#),
        ("\u{0}\u{1}\u{1F}\u{7F}", #""\u0000\u0001\u001f"# + "\u{7F}\""),
        ("é€😀\u{2028}", "\"é€😀\u{2028}\""),
    ])
    func escapesOnlyWhatJSONRequires(string: String, expected: String) {
        #expect(JSONValue.string(string).description == expected)
    }

    @Test(arguments: [
        (JSONValue.integer(0), "0"),
        (.integer(-7), "-7"),
        (.integer(.max), "9223372036854775807"),
        (.integer(.min), "-9223372036854775808"),
        (.double(0.1), "0.1"),
        (.double(2), "2.0"),
        (.double(-0.0), "-0.0"),
        (.double(1e20), "1e+20"),
        (.double(.leastNonzeroMagnitude), "5e-324"),
        (.double(1.7976931348623157e308), "1.7976931348623157e+308"),
        (.double(.nan), "null"),
        (.double(.infinity), "null"),
    ])
    func writesNumbersInShortestRoundTripForm(value: JSONValue, expected: String) throws {
        #expect(value.description == expected)
        let reparsed = try JSONValue(parsing: expected)
        if case .double(let double) = value, double.isFinite {
            #expect(reparsed == value)
        }
    }

    @Test func appendsToAnExistingBuffer() {
        var bytes = Array("prefix:".utf8)
        JSONSerializer().serialize([1, 2], into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "prefix:[1,2]")
    }

    @Test func roundTripsRandomDocumentsInBothStyles() throws {
        var generator = RandomJSON(seed: 42)
        for _ in 0..<300 {
            let value = generator.value(depth: 4)
            for style in [JSONSerializer.Style.compact, .pretty] {
                let bytes = JSONSerializer(style: style).serialize(value)
                let reparsed = try JSONParser().parse(bytes)
                #expect(reparsed == value)
                #expect(JSONSerializer(style: style).serialize(reparsed) == bytes)
            }
        }
    }
}
