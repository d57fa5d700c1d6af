import NIOCore
import Testing
import WebSocket

/// Reading messages: reassembly, interleaved control frames, fragmentation
/// errors, UTF-8 and size limits, as bytes.
@Suite struct WebSocketConnectionStateMachineTests {
    private func server(maxMessageSize: Int = 1 << 20) -> WebSocketConnectionStateMachine {
        WebSocketConnectionStateMachine(
            role: .server,
            configuration: WebSocketConfiguration(maxMessageSize: maxMessageSize),
            now: .uptimeNanoseconds(0)
        )
    }

    /// The close code of the close frame in a failing action.
    private func failure(_ actions: [WebSocketConnectionAction]) throws -> (code: UInt16, error: WebSocketProtocolError?) {
        let close = try #require(actions.last?.closeAction)
        #expect(close.closeConnection)
        var frame = try #require(close.frame)
        let decoded = try #require(try FrameDecoder(role: .client).decode(from: &frame))
        #expect(decoded.opcode == .close)
        return (try #require(decoded.payload.getInteger(at: decoded.payload.readerIndex, as: UInt16.self)), close.error)
    }

    @Test func deliversASingleFrameText() {
        var machine = server()
        let actions = readAll(&machine, clientFrame(opcode: 0x1, payload: utf8("Hello")))
        #expect(actions == [.deliver(.text("Hello"))])
    }

    @Test func reassemblesFragmentsWithAPingInBetween() throws {
        var machine = server()
        let bytes =
            clientFrame(fin: false, opcode: 0x1, payload: utf8("Hel"))
            + clientFrame(opcode: 0x9, payload: utf8("are you there"))
            + clientFrame(fin: false, opcode: 0x0, payload: utf8("l"))
            + clientFrame(opcode: 0x0, payload: utf8("o"))
        let actions = readAll(&machine, bytes)
        #expect(actions.count == 4)
        #expect(actions[0] == .doNothing)
        guard case .pong(var pong) = actions[1] else {
            Issue.record("expected a pong, got \(actions[1])")
            return
        }
        #expect(pong.bytes == [0x8A, 13] + utf8("are you there"))
        #expect(try FrameDecoder(role: .client).decode(from: &pong)?.opcode == .pong)
        #expect(actions[2] == .doNothing)
        #expect(actions[3] == .deliver(.text("Hello")))
    }

    @Test func binaryMessagesAreNotUTF8Checked() {
        var machine = server()
        let actions = readAll(&machine, clientFrame(opcode: 0x2, payload: [0xFF, 0xC0]))
        #expect(actions == [.deliver(.binary(ByteBuffer(bytes: [0xFF, 0xC0])))])
    }

    @Test func continuationWithoutStart() throws {
        var machine = server()
        let result = try failure(readAll(&machine, clientFrame(opcode: 0x0, payload: utf8("x"))))
        #expect(result.code == 1002 && result.error == .unexpectedContinuation)
        #expect(machine.state == .closed)
    }

    @Test func newMessageDuringFragments() throws {
        var machine = server()
        let bytes = clientFrame(fin: false, opcode: 0x1, payload: utf8("a")) + clientFrame(opcode: 0x2, payload: [1])
        let result = try failure(readAll(&machine, bytes))
        #expect(result.code == 1002 && result.error == .expectedContinuation(.binary))
    }

    @Test func badUTF8FailsInTheFrameThatHoldsIt() throws {
        var machine = server()
        // Offset 4 of the message (second frame) is 0xFF; the message never finishes.
        let bytes =
            clientFrame(fin: false, opcode: 0x1, payload: utf8("abc"))
            + clientFrame(fin: false, opcode: 0x0, payload: [0x64, 0xFF, 0x65])
        let result = try failure(readAll(&machine, bytes))
        #expect(result.code == 1007 && result.error == .invalidUTF8(offset: 4))
    }

    @Test func utf8SplitAcrossFragmentsIsFine() {
        var machine = server()
        let euro = utf8("€")
        let bytes =
            clientFrame(fin: false, opcode: 0x1, payload: Array(euro[..<1]))
            + clientFrame(opcode: 0x0, payload: Array(euro[1...]))
        #expect(readAll(&machine, bytes).last == .deliver(.text("€")))
    }

    @Test func textEndingMidCharacterIs1007() throws {
        var machine = server()
        let result = try failure(readAll(&machine, clientFrame(opcode: 0x1, payload: [0x61, 0xE2, 0x82])))
        #expect(result.code == 1007 && result.error == .truncatedUTF8(length: 3))
    }

    @Test func messageSizeLimitFailsAsSoonAsTheTotalPassesIt() throws {
        var machine = server(maxMessageSize: 10)
        var buffer = ByteBuffer(bytes: clientFrame(fin: false, opcode: 0x2, payload: Array(repeating: 1, count: 6)))
        #expect(machine.read(from: &buffer, now: .uptimeNanoseconds(0)) == .doNothing)
        // Only the header of the next fragment (declaring 6 more bytes) has arrived.
        buffer.writeBytes(clientFrame(fin: false, opcode: 0x0, payload: Array(repeating: 1, count: 6)).prefix(6))
        let action = try #require(machine.read(from: &buffer, now: .uptimeNanoseconds(0)))
        let result = try failure([action])
        #expect(result.code == 1009 && result.error == .messageTooLarge(length: 12, limit: 10))
    }

    @Test func messageOfExactlyTheLimitIsDelivered() {
        var machine = server(maxMessageSize: 10)
        let bytes =
            clientFrame(fin: false, opcode: 0x2, payload: Array(repeating: 1, count: 6))
            + clientFrame(opcode: 0x0, payload: Array(repeating: 2, count: 4))
        #expect(readAll(&machine, bytes).last == .deliver(.binary(ByteBuffer(bytes: [1, 1, 1, 1, 1, 1, 2, 2, 2, 2]))))
    }

    @Test func protocolErrorsFromTheDecoderCloseWith1002() throws {
        var machine = server()
        let result = try failure(readAll(&machine, frameBytes(opcode: 0x1, payload: utf8("unmasked"))))
        #expect(result.code == 1002 && result.error == .unmaskedClientFrame)
        #expect(machine.connectionClosed().code == .protocolError)
    }

    @Test func bytesAfterClosedAreDiscarded() {
        var machine = server()
        _ = readAll(&machine, clientFrame(opcode: 0x0, payload: []))
        var buffer = ByteBuffer(bytes: clientFrame(opcode: 0x1, payload: utf8("late")))
        #expect(machine.read(from: &buffer) == nil)
        #expect(buffer.readableBytes == 0)
    }

    @Test func clientRejectsMaskedFrames() throws {
        var machine = WebSocketConnectionStateMachine(role: .client, now: .uptimeNanoseconds(0))
        let actions = readAll(&machine, clientFrame(opcode: 0x1, payload: utf8("x")))
        let close = try #require(actions.last?.closeAction)
        #expect(close.error == .maskedServerFrame)
        // The client's own close frame is masked.
        var frame = try #require(close.frame)
        #expect(try FrameDecoder(role: .server).decode(from: &frame)?.opcode == .close)
    }
}
