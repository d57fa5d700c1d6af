import NIOCore
import Testing
import WebSocket

/// permessage-deflate inside the connection: RSV1 handling, thresholds,
/// fragmentation of compressed messages, and the size limit after inflating.
@Suite struct WebSocketConnectionStateMachineCompressionTests {
    private let start = NIODeadline.uptimeNanoseconds(0)

    private func pair(
        _ parameters: PerMessageDeflateParameters = PerMessageDeflateParameters(),
        configuration: WebSocketConfiguration = WebSocketConfiguration()
    ) -> (client: WebSocketConnectionStateMachine, server: WebSocketConnectionStateMachine) {
        (
            WebSocketConnectionStateMachine(role: .client, configuration: configuration, deflate: parameters, now: start),
            WebSocketConnectionStateMachine(role: .server, configuration: configuration, deflate: parameters, now: start)
        )
    }

    @Test func rfcCompressedHelloIsDelivered() {
        var (client, _) = pair()
        let actions = readAll(&client, [0xc1, 0x07, 0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00])
        #expect(actions == [.deliver(.text("Hello"))])
    }

    @Test func rfcFragmentedCompressedHelloIsDelivered() {
        var (client, _) = pair()
        // RFC 7692 §7.2.3.1: the compressed "Hello" split over two frames, RSV1 on the first only.
        let actions = readAll(&client, [0x41, 0x03, 0xf2, 0x48, 0xcd, 0x80, 0x04, 0xc9, 0xc9, 0x07, 0x00])
        #expect(actions == [.doNothing, .deliver(.text("Hello"))])
    }

    @Test func rsv1WithoutNegotiationIsAProtocolError() throws {
        var client = WebSocketConnectionStateMachine(role: .client, now: start)
        let actions = readAll(&client, [0xc1, 0x07, 0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00])
        let close = try #require(actions.first?.closeAction)
        #expect(close.error == .reservedBitsSet(0x40))
    }

    @Test(arguments: [nil, 7] as [Int?])
    func largeMessagesRoundTripCompressed(fragmentSize: Int?) throws {
        var (client, server) = pair()
        let text = String(repeating: "{\"op\":\"replace\",\"path\":\"/todos/0/done\"}", count: 20)
        let wire = try client.send(.text(text), fragmentSize: fragmentSize)
        #expect(wire.getInteger(at: 0, as: UInt8.self)! & 0x40 != 0, "RSV1 on the first frame")
        #expect(wire.readableBytes < text.utf8.count / 4)
        let actions = readAll(&server, wire.bytes)
        #expect(actions.last == .deliver(.text(text)))
    }

    @Test func smallMessagesStayUncompressed() throws {
        var (_, server) = pair()
        let wire = try server.send(.text("tiny"))
        #expect(wire.bytes == [0x81, 0x04] + utf8("tiny"))
    }

    @Test func eightBitWindowMeansSendingUncompressed() throws {
        var (_, server) = pair(PerMessageDeflateParameters(serverMaxWindowBits: 8))
        let text = String(repeating: "a", count: 1000)
        let wire = try server.send(.text(text))
        #expect(wire.getInteger(at: 0, as: UInt8.self) == 0x81)
    }

    @Test func inflatedSizeIsLimited() throws {
        var (client, server) = pair(configuration: WebSocketConfiguration(maxMessageSize: 4096))
        let wire = try client.send(.binary(ByteBuffer(repeating: 7, count: 100_000)))
        #expect(wire.readableBytes < 4096)
        let actions = readAll(&server, wire.bytes)
        let close = try #require(actions.last?.closeAction)
        #expect(close.error?.closeCode == .messageTooBig)
        #expect(close.frame?.getInteger(at: 2, as: UInt16.self) == 1009)
    }

    @Test func compressedTextIsUTF8Checked() throws {
        let compressor = try PerMessageDeflateCompressor(windowBits: 15, noContextTakeover: true)
        var payload = try compressor.compress(ByteBuffer(bytes: utf8("valid then ") + [0xFF]))
        var (client, _) = pair()
        var frame = ByteBuffer(bytes: [0xc1, UInt8(payload.readableBytes)])
        frame.writeBuffer(&payload)
        let actions = readAll(&client, frame.bytes)
        let close = try #require(actions.last?.closeAction)
        #expect(close.error == .invalidUTF8(offset: 11))
    }

    @Test func contextTakeoverAcrossMessages() throws {
        var (client, server) = pair(PerMessageDeflateParameters())
        let text = String(repeating: "shared window ", count: 30)
        for _ in 0..<3 {
            let wire = try server.send(.text(text))
            #expect(readAll(&client, wire.bytes) == [.deliver(.text(text))])
        }
    }
}

extension WebSocketConnectionStateMachineCompressionTests {
    @Test func noContextTakeoverReleasesZlibStateBetweenMessages() throws {
        var (client, server) = pair(PerMessageDeflateParameters(serverNoContextTakeover: true, clientNoContextTakeover: true))
        let text = String(repeating: "release me ", count: 40)
        let toServer = try client.send(.text(text))
        #expect(!client.holdsCompressionState)
        #expect(readAll(&server, toServer.bytes) == [.deliver(.text(text))])
        #expect(!server.holdsCompressionState)
    }

    @Test func contextTakeoverKeepsZlibState() throws {
        var (client, server) = pair(PerMessageDeflateParameters())
        let toServer = try client.send(.text(String(repeating: "keep me ", count: 40)))
        #expect(client.holdsCompressionState)
        _ = readAll(&server, toServer.bytes)
        #expect(server.holdsCompressionState)
    }
}
