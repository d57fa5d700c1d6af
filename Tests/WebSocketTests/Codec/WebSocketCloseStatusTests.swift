import NIOCore
import Testing
import WebSocket

@Suite struct WebSocketCloseStatusTests {
    @Test func roundTrip() throws {
        let status = WebSocketCloseStatus(code: .goingAway, reason: "shutting down")
        let payload = status.payload()
        #expect(payload.bytes == [0x03, 0xE9] + utf8("shutting down"))
        #expect(try WebSocketCloseStatus(parsing: payload) == status)
    }

    @Test func emptyPayloadMeansNoStatus() throws {
        #expect(try WebSocketCloseStatus(parsing: ByteBuffer()).code == .noStatusReceived)
        #expect(WebSocketCloseStatus(code: .noStatusReceived).payload().readableBytes == 0)
    }

    @Test func onePayloadByteIsAProtocolError() {
        #expect(throws: WebSocketProtocolError.closePayloadTooShort) {
            try WebSocketCloseStatus(parsing: ByteBuffer(bytes: [0x03]))
        }
    }

    @Test(arguments: [0, 999, 1004, 1005, 1006, 1015, 2999, 5000])
    func invalidCodesAreRejected(code: UInt16) {
        var payload = ByteBuffer()
        payload.writeInteger(code)
        #expect(throws: WebSocketProtocolError.invalidCloseCode(code)) { try WebSocketCloseStatus(parsing: payload) }
        #expect(WebSocketProtocolError.invalidCloseCode(code).closeCode == .protocolError)
    }

    @Test func invalidUTF8ReasonFailsAtItsByte() {
        // "ok" then 0xC0 (never valid) at reason offset 2.
        let payload = ByteBuffer(bytes: [0x03, 0xE8, 0x6F, 0x6B, 0xC0, 0x80])
        #expect(throws: WebSocketProtocolError.invalidUTF8(offset: 2)) { try WebSocketCloseStatus(parsing: payload) }
    }

    @Test func truncatedUTF8Reason() {
        let payload = ByteBuffer(bytes: [0x03, 0xE8, 0xE2, 0x82])
        #expect(throws: WebSocketProtocolError.truncatedUTF8(length: 2)) { try WebSocketCloseStatus(parsing: payload) }
    }

    @Test func longReasonsAreCutAtACharacterBoundary() throws {
        let status = WebSocketCloseStatus(code: .normalClosure, reason: String(repeating: "é", count: 100))
        let payload = status.payload()
        #expect(payload.readableBytes == 2 + 122)
        #expect(try WebSocketCloseStatus(parsing: payload).reason == String(repeating: "é", count: 61))
    }
}
