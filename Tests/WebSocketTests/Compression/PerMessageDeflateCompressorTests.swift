import NIOCore
import Testing
import WebSocket

/// Compression round trips and RFC 7692 §7.2.3 example bytes.
@Suite struct PerMessageDeflateCompressorTests {
    @Test func helloCompressesToTheRFCBytes() throws {
        let compressor = try PerMessageDeflateCompressor(windowBits: 15, noContextTakeover: true)
        #expect(try compressor.compress(ByteBuffer(string: "Hello")).bytes == [0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00])
    }

    @Test func rfcHelloInflates() throws {
        let decompressor = try PerMessageDeflateDecompressor(windowBits: 15, noContextTakeover: false)
        var output = ByteBuffer()
        try decompressor.inflate(ByteBuffer(bytes: [0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00]), into: &output, isFinal: true, limit: 100)
        #expect(String(buffer: output) == "Hello")
    }

    /// RFC 7692 §7.2.3.2: the second "Hello" refers back into the shared window.
    @Test func rfcSharedWindowSecondMessage() throws {
        let decompressor = try PerMessageDeflateDecompressor(windowBits: 15, noContextTakeover: false)
        var first = ByteBuffer()
        try decompressor.inflate(ByteBuffer(bytes: [0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00]), into: &first, isFinal: true, limit: 100)
        var second = ByteBuffer()
        try decompressor.inflate(ByteBuffer(bytes: [0xf2, 0x00, 0x11, 0x00, 0x00]), into: &second, isFinal: true, limit: 100)
        #expect(String(buffer: second) == "Hello")
    }

    /// RFC 7692 §7.2.3.3: a stored (uncompressed) DEFLATE block.
    @Test func rfcStoredBlockInflates() throws {
        let decompressor = try PerMessageDeflateDecompressor(windowBits: 15, noContextTakeover: true)
        var output = ByteBuffer()
        try decompressor.inflate(
            ByteBuffer(bytes: [0x00, 0x05, 0x00, 0xfa, 0xff, 0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x00]), into: &output, isFinal: true, limit: 100
        )
        #expect(String(buffer: output) == "Hello")
    }

    @Test(arguments: [(true, 15), (false, 15), (true, 9), (false, 10)])
    func roundTripsManyMessages(noContextTakeover: Bool, windowBits: Int) throws {
        let compressor = try PerMessageDeflateCompressor(windowBits: windowBits, noContextTakeover: noContextTakeover)
        let decompressor = try PerMessageDeflateDecompressor(windowBits: windowBits, noContextTakeover: noContextTakeover)
        var generator = SeededGenerator(seed: UInt64(windowBits))
        for index in 0..<50 {
            let words = (0..<Int.random(in: 0...400, using: &generator)).map { _ in ["alpha", "beta", "todo", "\(index)"].randomElement(using: &generator)! }
            let text = words.joined(separator: " ")
            let compressed = try compressor.compress(ByteBuffer(string: text))
            var output = ByteBuffer()
            try decompressor.inflate(compressed, into: &output, isFinal: true, limit: 1 << 20)
            #expect(String(buffer: output) == text)
        }
    }

    @Test func contextTakeoverShrinksARepeatedMessage() throws {
        let message = ByteBuffer(string: String(repeating: "{\"type\":\"patch\",\"ops\":[]} ", count: 10))
        let keeping = try PerMessageDeflateCompressor(windowBits: 15, noContextTakeover: false)
        let resetting = try PerMessageDeflateCompressor(windowBits: 15, noContextTakeover: true)
        _ = try keeping.compress(message)
        _ = try resetting.compress(message)
        #expect(try keeping.compress(message).readableBytes < resetting.compress(message).readableBytes)
    }

    @Test func inflatesAcrossFrames() throws {
        let compressor = try PerMessageDeflateCompressor(windowBits: 15, noContextTakeover: true)
        var compressed = try compressor.compress(ByteBuffer(string: String(repeating: "fragmented ", count: 50)))
        let decompressor = try PerMessageDeflateDecompressor(windowBits: 15, noContextTakeover: true)
        var output = ByteBuffer()
        while compressed.readableBytes > 3 {
            try decompressor.inflate(compressed.readSlice(length: 3)!, into: &output, isFinal: false, limit: 1 << 20)
        }
        try decompressor.inflate(compressed, into: &output, isFinal: true, limit: 1 << 20)
        #expect(String(buffer: output) == String(repeating: "fragmented ", count: 50))
    }

    /// 64 MiB of zeros compresses to about 64 KiB; with a 1 MiB limit
    /// inflation stops at the limit instead of producing 64 MiB.
    @Test func deflateBombStopsAtTheLimit() throws {
        let compressor = try PerMessageDeflateCompressor(windowBits: 15, noContextTakeover: true, compressionLevel: 9)
        let bomb = try compressor.compress(ByteBuffer(repeating: 0, count: 64 << 20))
        #expect(bomb.readableBytes < 100_000)
        let decompressor = try PerMessageDeflateDecompressor(windowBits: 15, noContextTakeover: true)
        var output = ByteBuffer()
        #expect(throws: WebSocketProtocolError.messageTooLarge(length: (1 << 20) + 16 * 1024, limit: 1 << 20)) {
            try decompressor.inflate(bomb, into: &output, isFinal: true, limit: 1 << 20)
        }
        #expect(output.readableBytes == 1 << 20)
        #expect(output.capacity <= 2 << 20)
    }

    @Test func garbageIsInvalidPayloadData() throws {
        let decompressor = try PerMessageDeflateDecompressor(windowBits: 15, noContextTakeover: true)
        var output = ByteBuffer()
        do {
            try decompressor.inflate(ByteBuffer(bytes: [0xFF, 0xFF, 0xFF, 0xFF]), into: &output, isFinal: true, limit: 100)
            Issue.record("garbage inflated")
        } catch {
            #expect(error.closeCode == .invalidPayloadData)
        }
    }

    @Test func unsupportedSettingsThrow() {
        #expect(throws: WebSocketSendError.self) { try PerMessageDeflateCompressor(windowBits: 8, noContextTakeover: true) }
        #expect(throws: WebSocketProtocolError.self) { try PerMessageDeflateDecompressor(windowBits: 16, noContextTakeover: true) }
    }
}

extension PerMessageDeflateCompressorTests {
    /// RFC 7692 §7.2.3.4: a sender may end a message with a final DEFLATE
    /// block (BFINAL set, here from Python's zlib with Z_FINISH); the tail the
    /// receiver appends is then ignored, and the next message still inflates.
    @Test func finalBlockMessageThenANormalOne() throws {
        let decompressor = try PerMessageDeflateDecompressor(windowBits: 15, noContextTakeover: false)
        var first = ByteBuffer()
        try decompressor.inflate(ByteBuffer(bytes: [0xf3, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00]), into: &first, isFinal: true, limit: 100)
        #expect(String(buffer: first) == "Hello")
        var second = ByteBuffer()
        try decompressor.inflate(ByteBuffer(bytes: [0x0a, 0xcf, 0x2f, 0xca, 0x49, 0x01, 0x00]), into: &second, isFinal: true, limit: 100)
        #expect(String(buffer: second) == "World")
    }
}

extension PerMessageDeflateCompressorTests {
    @Test func emptyMessageRoundTrips() throws {
        let compressor = try PerMessageDeflateCompressor(windowBits: 15, noContextTakeover: false)
        let compressed = try compressor.compress(ByteBuffer())
        #expect(compressed.bytes == [0x00])
        let decompressor = try PerMessageDeflateDecompressor(windowBits: 15, noContextTakeover: false)
        var output = ByteBuffer()
        try decompressor.inflate(compressed, into: &output, isFinal: true, limit: 10)
        #expect(output.readableBytes == 0)
        // The stream stays usable for the next message.
        try decompressor.inflate(try compressor.compress(ByteBuffer(string: "next")), into: &output, isFinal: true, limit: 10)
        #expect(String(buffer: output) == "next")
    }
}
