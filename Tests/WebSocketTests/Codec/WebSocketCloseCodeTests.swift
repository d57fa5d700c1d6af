import Testing
import WebSocket

@Suite struct WebSocketCloseCodeTests {
    @Test(arguments: [
        (UInt16(1000), WebSocketCloseCode.normalClosure), (1001, .goingAway), (1002, .protocolError),
        (1003, .unsupportedData), (1005, .noStatusReceived), (1006, .abnormalClosure),
        (1007, .invalidPayloadData), (1008, .policyViolation), (1009, .messageTooBig),
        (1010, .mandatoryExtension), (1011, .internalError), (1012, .serviceRestart),
        (1013, .tryAgainLater), (1014, .badGateway), (1015, .tlsHandshake), (4001, .unknown(4001)),
    ])
    func namedCasesRoundTrip(code: UInt16, named: WebSocketCloseCode) {
        #expect(WebSocketCloseCode(code: code) == named)
        #expect(named.code == code)
    }

    @Test(arguments: [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999])
    func validOnWire(code: UInt16) {
        #expect(WebSocketCloseCode(code: code).isValidOnWire)
    }

    @Test(arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535])
    func invalidOnWire(code: UInt16) {
        #expect(!WebSocketCloseCode(code: code).isValidOnWire)
    }

    @Test func description() {
        #expect(WebSocketCloseCode.goingAway.description == "1001 goingAway")
        #expect(WebSocketCloseCode.unknown(4321).description == "4321")
    }
}
