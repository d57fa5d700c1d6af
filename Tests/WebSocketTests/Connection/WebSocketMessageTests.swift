import NIOCore
import Testing
import WebSocket

@Suite struct WebSocketMessageTests {
    @Test func textAndBinary() {
        let text = WebSocketMessage.text("héllo")
        #expect(text.kind == .text && text.opcode == .text && text.text == "héllo")
        #expect(text.data.readableBytes == 6)
        let binary = WebSocketMessage.binary(ByteBuffer(bytes: [1, 2]))
        #expect(binary.kind == .binary && binary.opcode == .binary && binary.text == nil)
    }
}
