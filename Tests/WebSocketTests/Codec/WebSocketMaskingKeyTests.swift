import NIOCore
import Testing
import WebSocket

@Suite struct WebSocketMaskingKeyTests {
    private let key = WebSocketMaskingKey(0x37, 0xfa, 0x21, 0x3d)

    private func naive(_ bytes: [UInt8], offset: Int) -> [UInt8] {
        bytes.enumerated().map { $0.element ^ key[($0.offset + offset) % 4] }
    }

    @Test func rfcHelloUnmasks() {
        var buffer = ByteBuffer(bytes: [0x7f, 0x9f, 0x4d, 0x51, 0x58])
        key.unmask(&buffer)
        #expect(buffer.bytes == utf8("Hello"))
    }

    @Test func bytesAndDescription() {
        #expect((0..<4).map { key[$0] } == [0x37, 0xfa, 0x21, 0x3d])
        #expect(key.description == "37fa213d")
        #expect(WebSocketMaskingKey([0x37, 0xfa, 0x21, 0x3d]) == key)
        #expect(WebSocketMaskingKey([1, 2, 3]) == nil)
    }

    /// Every length up to 100 (covering the 32-byte, 8-byte and byte loops),
    /// every key offset, and unaligned starts, against a byte-by-byte reference.
    @Test(arguments: 0..<4)
    func wordWiseMatchesByteWise(offset: Int) {
        var generator = SeededGenerator(seed: UInt64(offset))
        for length in 0...100 {
            for skew in 0..<3 {
                let bytes = (0..<(length + skew)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                var buffer = ByteBuffer(bytes: bytes)
                buffer.moveReaderIndex(forwardBy: skew)
                key.unmask(&buffer, offset: offset)
                #expect(buffer.bytes == naive(Array(bytes[skew...]), offset: offset))
            }
        }
    }

    @Test func unmaskedCopyLeavesTheSourceAlone() {
        let source = ByteBuffer(bytes: Array(repeating: 0x55, count: 77))
        let copy = key.unmasked(source)
        #expect(source.bytes == Array(repeating: 0x55, count: 77))
        #expect(copy.bytes == naive(Array(repeating: 0x55, count: 77), offset: 0))
    }

    @Test func generatorIsDeterministicForASeedAndVaried() {
        var a = WebSocketMaskingKeyGenerator(seed: 7)
        var b = WebSocketMaskingKeyGenerator(seed: 7)
        let keys = (0..<100).map { _ in a.nextKey() }
        #expect(keys == (0..<100).map { _ in b.nextKey() })
        #expect(Set(keys).count > 95)
    }
}
