import Testing
import WebSocket

@Suite struct WebSocketExtensionOfferTests {
    @Test func parsesSeveralOffersAcrossHeaderValues() throws {
        let offers = try WebSocketExtensionOffer.parse([
            "permessage-deflate; client_max_window_bits, permessage-deflate ;server_max_window_bits = \"10\"",
            "x-custom",
        ])
        #expect(offers == [
            WebSocketExtensionOffer(name: "permessage-deflate", parameters: [.init(name: "client_max_window_bits")]),
            WebSocketExtensionOffer(name: "permessage-deflate", parameters: [.init(name: "server_max_window_bits", value: "10")]),
            WebSocketExtensionOffer(name: "x-custom"),
        ])
    }

    @Test func emptyElementsAndValuesAreSkipped() throws {
        #expect(try WebSocketExtensionOffer.parse(["", " , foo ,, "]) == [WebSocketExtensionOffer(name: "foo")])
    }

    @Test func quotedValuesAreUnescaped() throws {
        let offers = try WebSocketExtensionOffer.parse(["a; b=\"1\\2\""])
        #expect(offers.first?.parameters.first?.value == "12")
    }

    @Test(arguments: [
        ("; foo", 0, "an extension name"),
        ("foo;", 4, "a parameter name"),
        ("foo; a=", 7, "a parameter value"),
        ("foo bar", 4, "\",\""),
        ("foo; a=\"x y\"", 7, "a quoted token"),
        ("foo; a=\"10", 10, "\"\"\""),
        ("fo@o", 2, "\",\""),
    ])
    func malformedHeaders(header: String, position: Int, expected: String) {
        #expect(throws: WebSocketExtensionError.malformedHeader(header, position: position, expected: expected)) {
            try WebSocketExtensionOffer.parse([header])
        }
    }

    @Test func descriptionWritesHeaderText() {
        let offer = WebSocketExtensionOffer(
            name: "permessage-deflate", parameters: [.init(name: "server_no_context_takeover"), .init(name: "client_max_window_bits", value: "9")]
        )
        #expect(offer.description == "permessage-deflate; server_no_context_takeover; client_max_window_bits=9")
    }
}

extension WebSocketExtensionOfferTests {
    /// Random header text never crashes the parser or the negotiation, and
    /// whatever parses writes back to text that parses to the same offers.
    @Test func randomHeadersParseOrThrowAndRoundTrip() throws {
        var generator = SeededGenerator(seed: 7692)
        let pieces = ["permessage-deflate", "x", "a1", ";", ",", "=", "\"", "\\", " ", "\t", "15", "server_max_window_bits", "client_max_window_bits", "@", "é"]
        for _ in 0..<5000 {
            let header = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            _ = try? PerMessageDeflate.negotiate(offers: [header], configuration: PerMessageDeflateConfiguration())
            guard let offers = try? WebSocketExtensionOffer.parse([header]) else { continue }
            let written = offers.map(\.description).joined(separator: ", ")
            #expect(try WebSocketExtensionOffer.parse([written]) == offers, "header \(header)")
        }
    }
}
