import Testing
@testable import WebSocket

/// Every connection's handler holds a state machine, a message assembler
/// and a pong backlog, idle or not: what an idle connection never uses
/// (the close handshake, compression, a fragmented message, a held-back
/// pong) is kept out of line, and these bounds keep it so. (337 bytes for
/// the machine when all of it was inline.)
@Suite struct ConnectionStateFootprintTests {
    @Test func theStateAnIdleConnectionHoldsStaysSmall() {
        #expect(MemoryLayout<WebSocketConnectionStateMachine>.size <= 168)
        #expect(MemoryLayout<MessageAssembler>.size <= 24)
        #expect(MemoryLayout<PongBacklog>.size <= 16)
        #expect(MemoryLayout<OutOfLine<WebSocketCloseRecord>?>.size == MemoryLayout<Int>.size)
    }

    @Test func aCopyOfABoxedValueChangesOnItsOwn() {
        var first = OutOfLine([1, 2, 3])
        let second = first
        first.value.append(4)
        #expect(first.value == [1, 2, 3, 4])
        #expect(second.value == [1, 2, 3])
    }
}
