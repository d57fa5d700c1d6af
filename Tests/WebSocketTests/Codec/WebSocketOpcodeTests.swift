import Testing
import WebSocket

@Suite struct WebSocketOpcodeTests {
    @Test(arguments: [(UInt8(0x0), false), (0x1, false), (0x2, false), (0x8, true), (0x9, true), (0xA, true), (0xB, true), (0x3, false)])
    func controlBit(raw: UInt8, isControl: Bool) throws {
        let opcode = try #require(WebSocketOpcode(rawValue: raw))
        #expect(opcode.isControl == isControl)
    }

    @Test func reservedOpcodesAreNamedAndUndefined() throws {
        let reserved = try #require(WebSocketOpcode(rawValue: 0x3))
        #expect(!reserved.isDefined)
        #expect(reserved.description == "reserved(0x3)")
        #expect(WebSocketOpcode(rawValue: 0x10) == nil)
    }
}
