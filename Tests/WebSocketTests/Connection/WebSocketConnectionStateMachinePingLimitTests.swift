import NIOCore
import Testing
import WebSocket

/// A peer may send `maxPingsPerSecond` pings in a window of one second; one
/// more fails the connection with 1008.
@Suite struct WebSocketConnectionStateMachinePingLimitTests {
    private let start = NIODeadline.uptimeNanoseconds(0)

    private func pings(_ count: Int) -> [UInt8] {
        (0..<count).flatMap { clientFrame(opcode: 0x9, payload: [UInt8($0 % 256)]) }
    }

    private func pongs(in actions: [WebSocketConnectionAction]) -> Int {
        actions.filter { if case .pong = $0 { true } else { false } }.count
    }

    @Test func theLimitIsAnsweredAndOneMoreClosesWith1008() throws {
        var machine = WebSocketConnectionStateMachine(role: .server, configuration: WebSocketConfiguration(maxPingsPerSecond: 100), now: start)
        #expect(pongs(in: readAll(&machine, pings(100), now: start)) == 100)
        let actions = readAll(&machine, pings(1), now: start + .milliseconds(999))
        let close = try #require(actions.first?.closeAction)
        #expect(close.error == .tooManyPings(limit: 100))
        #expect(close.error?.closeCode == .policyViolation)
        #expect(close.closeConnection)
        var frame = try #require(close.frame)
        let payload = try #require(try FrameDecoder(role: .client).decode(from: &frame)).payload
        #expect(try WebSocketCloseStatus(parsing: payload) == WebSocketCloseStatus(code: .policyViolation, reason: "more than 100 pings in one second"))
        #expect(machine.state == .closed)
    }

    @Test func eachSecondHasItsOwnAllowance() {
        var machine = WebSocketConnectionStateMachine(role: .server, configuration: WebSocketConfiguration(maxPingsPerSecond: 10), now: start)
        for second in 0..<5 {
            let now = start + .seconds(Int64(second)) + .milliseconds(500)
            #expect(pongs(in: readAll(&machine, pings(10), now: now)) == 10, "second \(second)")
        }
        #expect(machine.state == .open)
    }

    @Test func withoutALimitEveryPingIsAnswered() {
        var machine = WebSocketConnectionStateMachine(role: .server, configuration: WebSocketConfiguration(maxPingsPerSecond: nil), now: start)
        #expect(pongs(in: readAll(&machine, pings(10_000), now: start)) == 10_000)
        #expect(machine.state == .open)
    }

    @Test func aClientLimitsTheServersPingsToo() throws {
        var machine = WebSocketConnectionStateMachine(role: .client, configuration: WebSocketConfiguration(maxPingsPerSecond: 2), now: start)
        let serverPings = (0..<3).flatMap { _ in frameBytes(opcode: 0x9, payload: []) }
        let actions = readAll(&machine, serverPings, now: start)
        #expect(pongs(in: actions) == 2)
        #expect(actions.last?.closeAction?.error == .tooManyPings(limit: 2))
    }
}
