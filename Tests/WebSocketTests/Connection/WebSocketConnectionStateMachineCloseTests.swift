import NIOCore
import Testing
import WebSocket

/// The close handshake in both directions, for both roles.
@Suite struct WebSocketConnectionStateMachineCloseTests {
    private let start = NIODeadline.uptimeNanoseconds(0)

    private func closePayload(_ code: UInt16, _ reason: String = "") -> [UInt8] {
        [UInt8(code >> 8), UInt8(code & 0xFF)] + utf8(reason)
    }

    @Test func serverEchoesAPeerCloseAndClosesTCP() throws {
        var machine = WebSocketConnectionStateMachine(role: .server, now: start)
        let actions = readAll(&machine, clientFrame(opcode: 0x8, payload: closePayload(1001, "bye")))
        let close = try #require(actions.first?.closeAction)
        #expect(close.frame?.bytes == [0x88, 0x02, 0x03, 0xE9])
        #expect(close.closeConnection && close.error == nil)
        #expect(machine.state == .closed)
        #expect(machine.receivedCloseStatus == WebSocketCloseStatus(code: .goingAway, reason: "bye"))
        #expect(machine.connectionClosed() == WebSocketCloseStatus(code: .goingAway, reason: "bye"))
        #expect(throws: WebSocketSendError.closing(.closed)) { try machine.send(.text("too late")) }
    }

    @Test func emptyCloseIsAnsweredWithAnEmptyClose() throws {
        var machine = WebSocketConnectionStateMachine(role: .server, now: start)
        let actions = readAll(&machine, clientFrame(opcode: 0x8, payload: []))
        #expect(actions == [.close(WebSocketCloseAction(frame: ByteBuffer(bytes: [0x88, 0x00]), closeConnection: true))])
        #expect(machine.connectionClosed().code == .noStatusReceived)
    }

    @Test func clientEchoesAndWaitsForTheServerToCloseTCP() throws {
        var machine = WebSocketConnectionStateMachine(role: .client, now: start)
        let actions = readAll(&machine, frameBytes(opcode: 0x8, payload: closePayload(1000)), now: start)
        let close = try #require(actions.first?.closeAction)
        #expect(!close.closeConnection)
        var frame = try #require(close.frame)
        #expect(try FrameDecoder(role: .server).decode(from: &frame)?.payload.bytes == closePayload(1000))
        #expect(machine.nextDeadline == start + .seconds(5))
        #expect(machine.timerFired(now: start + .seconds(4)) == .doNothing)
        #expect(machine.timerFired(now: start + .seconds(5)) == .close(WebSocketCloseAction(frame: nil, closeConnection: true)))
    }

    @Test func serverInitiatesThenThePeerAnswers() throws {
        var machine = WebSocketConnectionStateMachine(role: .server, now: start)
        let action = try machine.close(WebSocketCloseStatus(code: .goingAway, reason: "restart"), now: start)
        #expect(action == .close(WebSocketCloseAction(frame: ByteBuffer(bytes: [0x88, 0x09, 0x03, 0xE9] + utf8("restart")), closeConnection: false)))
        #expect(machine.state == .closing)
        #expect(machine.nextDeadline == start + .seconds(5))
        #expect(throws: WebSocketSendError.closing(.closing)) { try machine.send(.text("no more data")) }
        #expect(try machine.close(WebSocketCloseStatus(code: .normalClosure)) == .doNothing)

        // Data still arrives before the peer's close, then the close completes the handshake.
        let actions = readAll(
            &machine,
            clientFrame(opcode: 0x1, payload: utf8("last")) + clientFrame(opcode: 0x8, payload: closePayload(1001))
        )
        #expect(actions == [.deliver(.text("last")), .close(WebSocketCloseAction(frame: nil, closeConnection: true))])
        #expect(machine.state == .closed && machine.nextDeadline == nil)
    }

    @Test func closeTimeoutWhenThePeerNeverAnswers() throws {
        var machine = WebSocketConnectionStateMachine(role: .server, now: start)
        _ = try machine.close(WebSocketCloseStatus(code: .normalClosure), now: start)
        #expect(machine.timerFired(now: start + .seconds(5)) == .close(WebSocketCloseAction(frame: nil, closeConnection: true)))
        #expect(machine.connectionClosed().code == .abnormalClosure)
    }

    @Test func aProtocolErrorWhileClosingSendsNoSecondClose() throws {
        var machine = WebSocketConnectionStateMachine(role: .server, now: start)
        _ = try machine.close(WebSocketCloseStatus(code: .normalClosure), now: start)
        let actions = readAll(&machine, clientFrame(opcode: 0x3, payload: []))
        #expect(actions == [.close(WebSocketCloseAction(frame: nil, closeConnection: true, error: .reservedOpcode(3)))])
    }

    @Test(arguments: [0, 999, 1004, 1005, 1006, 1015, 2999, 5000])
    func invalidReceivedCloseCodesFailWith1002(code: UInt16) throws {
        var machine = WebSocketConnectionStateMachine(role: .server, now: start)
        let actions = readAll(&machine, clientFrame(opcode: 0x8, payload: closePayload(code)))
        #expect(actions == [
            .close(WebSocketCloseAction(
                frame: ByteBuffer(bytes: [0x88, UInt8(2 + "close code \(code) may not be sent".utf8.count), 0x03, 0xEA] + utf8("close code \(code) may not be sent")),
                closeConnection: true,
                error: .invalidCloseCode(code)
            ))
        ])
    }

    @Test func closeWithOnePayloadByteFailsWith1002() throws {
        var machine = WebSocketConnectionStateMachine(role: .server, now: start)
        let actions = readAll(&machine, clientFrame(opcode: 0x8, payload: [0x03]))
        let close = try #require(actions.first?.closeAction)
        #expect(close.error == .closePayloadTooShort)
        #expect(close.frame?.getInteger(at: 2, as: UInt16.self) == 1002)
    }

    @Test func closeReasonWithBadUTF8FailsWith1007() throws {
        var machine = WebSocketConnectionStateMachine(role: .server, now: start)
        let actions = readAll(&machine, clientFrame(opcode: 0x8, payload: closePayload(1000) + [0xFF]))
        let close = try #require(actions.first?.closeAction)
        #expect(close.error == .invalidUTF8(offset: 0))
        #expect(close.frame?.getInteger(at: 2, as: UInt16.self) == 1007)
    }

    @Test func invalidCodesCannotBeSent() {
        var machine = WebSocketConnectionStateMachine(role: .server, now: start)
        #expect(throws: WebSocketSendError.invalidCloseCode(.abnormalClosure)) {
            try machine.close(WebSocketCloseStatus(code: .abnormalClosure))
        }
        #expect(machine.state == .open)
    }

    @Test func droppedConnectionReports1006() {
        var machine = WebSocketConnectionStateMachine(role: .client, now: start)
        #expect(machine.connectionClosed().code == .abnormalClosure)
    }
}
