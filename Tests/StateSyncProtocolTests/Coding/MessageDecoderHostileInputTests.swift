import StateSyncCore
import StateSyncProtocol
import Testing

@Suite("MessageDecoder: hostile input")
struct MessageDecoderHostileInputTests {
    let decoder = MessageDecoder()

    private func error(_ bytes: [UInt8], decoder: MessageDecoder = MessageDecoder()) throws -> ProtocolError {
        try #require(throws: ProtocolError.self) { try decoder.decodeClientMessage(bytes) }
    }

    @Test("nesting far beyond the limit is bad_json, not a stack overflow")
    func deepNesting() throws {
        let depth = 100_000
        let text = #"{"type":"dispatch","id":"a1","action":"# + String(repeating: "[", count: depth)
        let error = try error(Array(text.utf8))
        #expect(error.code == .badJSON)
        #expect(error.message.contains("nesting deeper than 512 levels"))
    }

    @Test("a tighter depth limit applies to actions")
    func configuredDepth() throws {
        let action = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        let text = #"{"type":"dispatch","id":"a1","action":{"type":"x","v":\#(action)}}"#
        let strict = MessageDecoder(limits: JSONParser.Limits(maxDepth: 16))
        #expect(try error(Array(text.utf8), decoder: strict).code == .badJSON)
        #expect(throws: Never.self) { try decoder.decodeClientMessage(Array(text.utf8)) }
    }

    @Test("messages above the size limit are bad_json")
    func tooLarge() throws {
        let text = #"{"type":"get","id":"g1","path":"/\#(String(repeating: "x", count: 2_000))"}"#
        let small = MessageDecoder(limits: JSONParser.Limits(maxInputBytes: 1_024))
        let error = try error(Array(text.utf8), decoder: small)
        #expect(error.code == .badJSON)
        #expect(error.message.contains("exceeds the limit of 1024 bytes"))
    }

    @Test("numbers too large for a double are bad_json; large integers as revisions are bad_request")
    func hugeNumbers() throws {
        let overflow = try error(Array(#"{"type":"subscribe","id":"s1","path":"","since":1e400}"#.utf8))
        #expect(overflow.code == .badJSON)
        let digits = String(repeating: "9", count: 300)
        let large = try error(Array(#"{"type":"subscribe","id":"s1","path":"","since":\#(digits)}"#.utf8))
        #expect(large.code == .badRequest)
        #expect(large.id == "s1")
        #expect(large.message.hasPrefix(#"field "since" must be a non-negative 64-bit integer"#))
    }

    @Test("invalid UTF-8 is bad_json with its byte offset", arguments: [
        [UInt8(0xFF)],
        Array(#"{"type":"hello","name":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8),
        Array(#"{"type":"hello","name":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8),
        Array(#"{"type":"hello","name":""#.utf8) + [0xF0, 0x9F] ,
    ])
    func invalidUTF8(_ bytes: [UInt8]) throws {
        let error = try error(bytes)
        #expect(error.code == .badJSON)
        #expect(error.byteOffset != nil)
    }

    @Test("unpaired surrogate escapes and raw control characters are bad_json")
    func badStrings() throws {
        #expect(try error(Array(#"{"type":"hello","name":"\ud800"}"#.utf8)).code == .badJSON)
        #expect(try error(Array("{\"type\":\"hello\",\"name\":\"a\u{0}b\"}".utf8)).code == .badJSON)
    }

    @Test("a duplicate key is bad_json (no ambiguity about which type applies)")
    func duplicateKeys() throws {
        let error = try error(Array(#"{"type":"get","type":"hello"}"#.utf8))
        #expect(error.code == .badJSON)
        #expect(error.message.contains(#"duplicate key "type""#))
    }

    @Test("a huge unknown type is named but clipped")
    func longType() throws {
        let type = String(repeating: "z", count: 100_000)
        let error = try error(Array(#"{"type":"\#(type)"}"#.utf8))
        #expect(error.code == .unknownType)
        #expect(error.message.count < 100)
        #expect(error.message.hasPrefix(#"unknown message type "zzzz"#))
    }

    @Test("a huge wrongly typed value is described by kind, not echoed")
    func hugeWrongValue() throws {
        let big = "[" + Array(repeating: "1", count: 100_000).joined(separator: ",") + "]"
        let error = try error(Array(#"{"type":"get","id":"g1","path":\#(big)}"#.utf8))
        #expect(error.message == #"field "path" must be a string, found an array"#)
    }
}
