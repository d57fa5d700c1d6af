import Logging
import NIOCore
@testable import StateSyncServer
import Testing
import WebSocket

@Suite
struct SharedFramesTests {
    static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    static func address(_ buffer: ByteBuffer) -> UnsafeRawPointer? {
        buffer.withUnsafeReadableBytes { $0.baseAddress.map(UnsafeRawPointer.init) }
    }

    @Test func theSameArrayIsFramedOnceAndAnotherArrayAgain() {
        let frames = SharedFrames(compress: false, logger: Self.logger)
        let patch = Array(#"{"type":"patch","id":"s1","base":1,"rev":2,"ops":[]}"#.utf8)
        let first = frames.prepared(patch)
        let second = frames.prepared(patch)
        #expect(Self.address(first.uncompressedFrame) == Self.address(second.uncompressedFrame))
        var copy = patch
        copy[copy.count - 2] = UInt8(ascii: "]")  // same bytes, new storage
        let third = frames.prepared(copy)
        #expect(Self.address(third.uncompressedFrame) != Self.address(first.uncompressedFrame))
        #expect(third.message.data == first.message.data)
    }

    @Test(arguments: [(10, false), (2_000, true)])
    func largeFramesAlsoGetOneCompressedForm(size: Int, compressed: Bool) {
        let frames = SharedFrames(compress: true, logger: Self.logger)
        let text = Array(#"{"type":"snapshot","id":"s1","rev":1,"value":""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: size) + Array(#""}"#.utf8)
        let prepared = frames.prepared(text)
        #expect((prepared.compressedFrame != nil) == compressed)
        #expect(Array(prepared.message.data.readableBytesView) == text)
    }
}
