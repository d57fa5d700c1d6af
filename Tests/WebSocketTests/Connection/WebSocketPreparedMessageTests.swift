import NIOCore
import Testing
import WebSocket

@Suite struct WebSocketPreparedMessageTests {
    private let text = String(repeating: "{\"type\":\"patch\",\"rev\":1045} ", count: 20)
    private let start = NIODeadline.uptimeNanoseconds(0)

    private func server(_ deflate: PerMessageDeflateParameters?) -> WebSocketConnectionStateMachine {
        WebSocketConnectionStateMachine(role: .server, deflate: deflate, now: start)
    }

    @Test func sameBytesForEveryConnectionWithoutContextTakeover() throws {
        let compressor = try PerMessageDeflateCompressor(windowBits: 15, noContextTakeover: true)
        let prepared = try WebSocketPreparedMessage(.text(text), compressor: compressor)
        let compressed = try #require(prepared.compressedFrame)
        var first = server(PerMessageDeflateParameters(serverNoContextTakeover: true))
        var second = server(PerMessageDeflateParameters(serverNoContextTakeover: true))
        #expect(try first.send(prepared) == compressed)
        #expect(try second.send(prepared) == compressed)

        var client = WebSocketConnectionStateMachine(
            role: .client, deflate: PerMessageDeflateParameters(serverNoContextTakeover: true), now: start
        )
        #expect(readAll(&client, compressed.bytes) == [.deliver(.text(text))])
    }

    @Test func plainBytesWithoutCompressionOrWithASmallerWindow() throws {
        let compressor = try PerMessageDeflateCompressor(windowBits: 15, noContextTakeover: true)
        let prepared = try WebSocketPreparedMessage(.text(text), compressor: compressor)
        var plain = server(nil)
        #expect(try plain.send(prepared) == prepared.uncompressedFrame)
        var smallWindow = server(PerMessageDeflateParameters(serverNoContextTakeover: true, serverMaxWindowBits: 10))
        #expect(try smallWindow.send(prepared) == prepared.uncompressedFrame)
    }

    @Test func contextTakeoverCompressesPerConnection() throws {
        let compressor = try PerMessageDeflateCompressor(windowBits: 15, noContextTakeover: true)
        let prepared = try WebSocketPreparedMessage(.text(text), compressor: compressor)
        var keeping = server(PerMessageDeflateParameters())
        var client = WebSocketConnectionStateMachine(role: .client, deflate: PerMessageDeflateParameters(), now: start)
        let first = try keeping.send(prepared)
        let second = try keeping.send(prepared)
        #expect(second.readableBytes < first.readableBytes, "the second refers back to the first")
        #expect(readAll(&client, first.bytes + second.bytes) == [.deliver(.text(text)), .deliver(.text(text))])
    }

    @Test func clientsEncodeMasked() throws {
        let prepared = try WebSocketPreparedMessage(.binary(ByteBuffer(bytes: [1, 2, 3])))
        var client = WebSocketConnectionStateMachine(role: .client, now: start)
        var bytes = try client.send(prepared)
        #expect(try FrameDecoder(role: .server).decode(from: &bytes)?.payload.bytes == [1, 2, 3])
    }

    @Test func smallMessagesGetNoCompressedForm() throws {
        let compressor = try PerMessageDeflateCompressor(windowBits: 15, noContextTakeover: true)
        #expect(try WebSocketPreparedMessage(.text("hi"), compressor: compressor).compressedFrame == nil)
    }

    @Test func aCompressorKeepingContextIsRefused() throws {
        let compressor = try PerMessageDeflateCompressor(windowBits: 15, noContextTakeover: false)
        #expect(throws: WebSocketSendError.self) { try WebSocketPreparedMessage(.text(text), compressor: compressor) }
    }
}
