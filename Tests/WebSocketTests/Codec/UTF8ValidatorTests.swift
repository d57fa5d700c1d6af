import NIOCore
import Testing
import WebSocket

@Suite struct UTF8ValidatorTests {
    @Test(arguments: ["", "Hello", "κόσμε", "€ and 𝄞", String(repeating: "ascii run ", count: 20) + "ü"])
    func validTexts(text: String) {
        #expect(UTF8Validator.isValid(ByteBuffer(string: text)))
    }

    /// The offset of the first byte that cannot continue a valid sequence.
    @Test(arguments: [
        ([UInt8(0xC0), 0x80], 0),  // overlong lead
        ([0x61, 0xC1, 0xBF], 1),  // overlong lead
        ([0xE0, 0x80, 0x80], 1),  // overlong 3-byte
        ([0xED, 0xA0, 0x80], 1),  // surrogate U+D800
        ([0xF0, 0x8F, 0xBF, 0xBF], 1),  // overlong 4-byte
        ([0xF4, 0x90, 0x80, 0x80], 1),  // above U+10FFFF
        ([0xF5, 0x80], 0),  // never valid
        ([0x80], 0),  // lone continuation
        ([0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0xFF], 9),  // after an ASCII run
        ([0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0, 0x80, 0x65, 0x64, 0x69, 0x74, 0x65, 0x64], 12),
    ])
    func invalidAtTheExactByte(bytes: [UInt8], offset: Int) {
        var validator = UTF8Validator()
        #expect(throws: WebSocketProtocolError.invalidUTF8(offset: offset)) {
            try validator.validate(ByteBuffer(bytes: bytes))
        }
    }

    @Test func validatesAcrossChunkBoundaries() throws {
        let bytes = utf8("a€b𝄞c")
        for split in 0...bytes.count {
            var validator = UTF8Validator()
            try validator.validate(ByteBuffer(bytes: bytes[..<split]))
            try validator.validate(ByteBuffer(bytes: bytes[split...]))
            try validator.finish()
        }
    }

    @Test func failsInTheChunkThatHoldsTheBadByte() throws {
        var validator = UTF8Validator()
        try validator.validate(ByteBuffer(bytes: [0x61, 0xE2, 0x82]))
        #expect(!validator.isAtCharacterBoundary)
        #expect(throws: WebSocketProtocolError.invalidUTF8(offset: 3)) {
            try validator.validate(ByteBuffer(bytes: [0x41]))
        }
    }

    @Test func truncatedAtTheEnd() throws {
        var validator = UTF8Validator()
        try validator.validate(ByteBuffer(bytes: [0xF0, 0x9D, 0x84]))
        #expect(throws: WebSocketProtocolError.truncatedUTF8(length: 3)) { try validator.finish() }
    }

    /// Random byte strings (mostly ASCII with sprinkled high bytes) agree with
    /// the standard library's decoder, whole and split in two.
    @Test func agreesWithTheStandardLibrary() {
        var generator = SeededGenerator(seed: 99)
        for _ in 0..<5000 {
            let length = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<length).map { _ in
                Bool.random(using: &generator) ? UInt8.random(in: 0x20...0x7E, using: &generator) : UInt8.random(in: 0x80...0xFF, using: &generator)
            }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect(UTF8Validator.isValid(ByteBuffer(bytes: bytes)) == expected, "bytes \(bytes)")
            // The same verdict when the bytes arrive in two pieces.
            let split = Int.random(in: 0...length, using: &generator)
            var validator = UTF8Validator()
            let chunked = (try? validator.validate(ByteBuffer(bytes: bytes[..<split]))) != nil
                && (try? validator.validate(ByteBuffer(bytes: bytes[split...]))) != nil
                && validator.isAtCharacterBoundary
            #expect(chunked == expected, "bytes \(bytes) split at \(split)")
        }
    }
}
