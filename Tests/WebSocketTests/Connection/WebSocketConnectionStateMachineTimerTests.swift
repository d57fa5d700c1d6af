import NIOCore
import Testing
import WebSocket

/// Keepalive pings and the idle timeout, as decisions for the handler's timer.
@Suite struct WebSocketConnectionStateMachineTimerTests {
    private let start = NIODeadline.uptimeNanoseconds(0)

    private func machine(ping: TimeAmount? = .seconds(30), idle: TimeAmount? = .seconds(90)) -> WebSocketConnectionStateMachine {
        WebSocketConnectionStateMachine(
            role: .server,
            configuration: WebSocketConfiguration(pingInterval: ping, idleTimeout: idle),
            now: start
        )
    }

    @Test func pingsWhenQuietThenClosesWhenIdle() throws {
        var machine = machine()
        #expect(machine.nextDeadline == start + .seconds(30))
        #expect(machine.timerFired(now: start + .seconds(29)) == .doNothing)
        guard case .write(var ping) = machine.timerFired(now: start + .seconds(30)) else {
            Issue.record("expected a ping")
            return
        }
        #expect(try FrameDecoder(role: .client).decode(from: &ping)?.opcode == .ping)
        #expect(machine.nextDeadline == start + .seconds(60))
        _ = machine.timerFired(now: start + .seconds(60))
        #expect(machine.nextDeadline == start + .seconds(90))
        let action = machine.timerFired(now: start + .seconds(90))
        let close = try #require(action.closeAction)
        #expect(!close.closeConnection)
        #expect(close.frame?.bytes == [0x88, 14, 0x03, 0xE9] + utf8("idle timeout"))
        #expect(machine.nextDeadline == start + .seconds(95))
    }

    @Test func receivedBytesPostponeBothTimers() {
        var machine = machine()
        _ = readAll(&machine, clientFrame(opcode: 0xA, payload: []), now: start + .seconds(25))
        #expect(machine.nextDeadline == start + .seconds(55))
        #expect(machine.timerFired(now: start + .seconds(30)) == .doNothing)
    }

    @Test func noTimersWhenBothAreOff() {
        let machine = machine(ping: nil, idle: nil)
        #expect(machine.nextDeadline == nil)
    }

    @Test func idleOnlyWithoutPings() {
        var machine = machine(ping: nil, idle: .seconds(10))
        #expect(machine.nextDeadline == start + .seconds(10))
        guard case .close = machine.timerFired(now: start + .seconds(10)) else {
            Issue.record("expected an idle close")
            return
        }
        #expect(machine.state == .closing)
    }
}

extension WebSocketConnectionStateMachineTimerTests {
    @Test func partialFramesCountAsActivity() {
        var machine = machine()
        var buffer = ByteBuffer(bytes: clientFrame(opcode: 0x2, payload: Array(repeating: 1, count: 50)).prefix(20))
        #expect(machine.read(from: &buffer, now: start + .seconds(80)) == nil)
        #expect(machine.nextDeadline == start + .seconds(110))
    }
}
