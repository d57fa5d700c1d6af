import NIOCore
import Testing
import WebSocket

/// Invalid UTF-8 fails the connection as soon as it arrives, even inside a
/// frame whose payload is still incomplete (Autobahn 6.4.3, 6.4.4).
@Suite struct WebSocketConnectionStateMachinePartialTextTests {
    static func closeCode(_ action: WebSocketConnectionAction?) -> UInt16? {
        guard case .close(let close)? = action, let frame = close.frame else { return nil }
        return frame.getInteger(at: frame.readerIndex + 2, as: UInt16.self)
    }

    @Test func invalidBytesInAnIncompleteTextFrameFailAtOnce() {
        var machine = WebSocketConnectionStateMachine(role: .server, configuration: .init(compression: nil))
        let valid = utf8("κόσμε")
        let frame = clientFrame(opcode: 0x1, payload: valid + [0xF4, 0x90, 0x80, 0x80] + utf8("edited"))
        var buffer = ByteBuffer(bytes: frame.prefix(2 + 4 + valid.count))
        #expect(machine.read(from: &buffer) == nil)  // valid so far: wait
        buffer.writeBytes(frame.dropFirst(2 + 4 + valid.count).prefix(2))
        #expect(Self.closeCode(machine.read(from: &buffer)) == 1007)
    }

    @Test func invalidBytesInAnIncompleteContinuationFailAtOnce() {
        var machine = WebSocketConnectionStateMachine(role: .server, configuration: .init(compression: nil))
        var buffer = ByteBuffer(bytes: clientFrame(fin: false, opcode: 0x1, payload: utf8("ok ")))
        #expect(machine.read(from: &buffer) == .doNothing)
        let continuation = clientFrame(opcode: 0x0, payload: [0xC0, 0x80] + Array(repeating: 0x61, count: 100))
        buffer.writeBytes(continuation.prefix(8))
        #expect(Self.closeCode(machine.read(from: &buffer)) == 1007)
    }

    @Test func validTextSplitAnywhereIsDelivered() {
        let text = "héllo wörld ✓ " + String(repeating: "€", count: 50)
        let frame = clientFrame(opcode: 0x1, payload: utf8(text))
        for split in 1..<frame.count {
            var machine = WebSocketConnectionStateMachine(role: .server, configuration: .init(compression: nil))
            var buffer = ByteBuffer(bytes: frame.prefix(split))
            #expect(machine.read(from: &buffer) == nil)
            buffer.writeBytes(frame.dropFirst(split))
            #expect(machine.read(from: &buffer) == .deliver(.text(text)))
        }
    }
}
