import Testing
import WebSocket

/// Negotiation tables for both sides (RFC 7692 §7.1).
@Suite struct PerMessageDeflateTests {
    private static let plain = PerMessageDeflateConfiguration(serverNoContextTakeover: false, clientNoContextTakeover: false)

    @Test(arguments: [
        // offer, server configuration, expected response header (nil = declined)
        ("permessage-deflate", plain, "permessage-deflate"),
        ("permessage-deflate", PerMessageDeflateConfiguration(), "permessage-deflate; server_no_context_takeover; client_no_context_takeover"),
        ("permessage-deflate; client_no_context_takeover", plain, "permessage-deflate; client_no_context_takeover"),
        ("permessage-deflate; server_no_context_takeover", plain, "permessage-deflate; server_no_context_takeover"),
        ("permessage-deflate; server_max_window_bits=10", plain, "permessage-deflate; server_max_window_bits=10"),
        ("permessage-deflate; server_max_window_bits=12", PerMessageDeflateConfiguration(serverNoContextTakeover: false, clientNoContextTakeover: false, serverMaxWindowBits: 10), "permessage-deflate; server_max_window_bits=10"),
        ("permessage-deflate", PerMessageDeflateConfiguration(serverNoContextTakeover: false, clientNoContextTakeover: false, serverMaxWindowBits: 11), "permessage-deflate; server_max_window_bits=11"),
        ("permessage-deflate; client_max_window_bits", plain, "permessage-deflate"),
        ("permessage-deflate; client_max_window_bits", PerMessageDeflateConfiguration(serverNoContextTakeover: false, clientNoContextTakeover: false, clientMaxWindowBits: 9), "permessage-deflate; client_max_window_bits=9"),
        ("permessage-deflate; client_max_window_bits=12", plain, "permessage-deflate; client_max_window_bits=12"),
        ("permessage-deflate; client_max_window_bits=12", PerMessageDeflateConfiguration(serverNoContextTakeover: false, clientNoContextTakeover: false, clientMaxWindowBits: 10), "permessage-deflate; client_max_window_bits=10"),
        ("permessage-deflate", PerMessageDeflateConfiguration(clientMaxWindowBits: 10), nil),
        ("permessage-deflate; server_max_window_bits", plain, nil),
        ("permessage-deflate; server_max_window_bits=7", plain, nil),
        ("permessage-deflate; server_max_window_bits=16", plain, nil),
        ("permessage-deflate; server_max_window_bits=010", plain, nil),
        ("permessage-deflate; client_max_window_bits=abc", plain, nil),
        ("permessage-deflate; server_no_context_takeover=1", plain, nil),
        ("permessage-deflate; server_no_context_takeover; server_no_context_takeover", plain, nil),
        ("permessage-deflate; mystery", plain, nil),
        ("x-webkit-deflate-frame", plain, nil),
    ] as [(String, PerMessageDeflateConfiguration, String?)])
    func serverNegotiation(offer: String, configuration: PerMessageDeflateConfiguration, response: String?) throws {
        let result = try PerMessageDeflate.negotiate(offers: [offer], configuration: configuration)
        #expect(result?.responseHeader == response)
    }

    @Test func serverSkipsAnInvalidOfferForTheNextOne() throws {
        let result = try #require(
            try PerMessageDeflate.negotiate(
                offers: ["permessage-deflate; server_max_window_bits=99, permessage-deflate; client_max_window_bits"],
                configuration: Self.plain
            )
        )
        #expect(result.responseHeader == "permessage-deflate")
        #expect(result.parameters == PerMessageDeflateParameters())
    }

    @Test func serverParametersMatchTheResponse() throws {
        let result = try #require(
            try PerMessageDeflate.negotiate(
                offers: ["permessage-deflate; client_max_window_bits; server_max_window_bits=10"],
                configuration: PerMessageDeflateConfiguration(clientNoContextTakeover: true, clientMaxWindowBits: 12)
            )
        )
        #expect(result.parameters == PerMessageDeflateParameters(
            serverNoContextTakeover: true, clientNoContextTakeover: true, serverMaxWindowBits: 10, clientMaxWindowBits: 12
        ))
        #expect(try PerMessageDeflate.acceptResponse(result.responseHeader, offered: PerMessageDeflateConfiguration(serverMaxWindowBits: 10)) == result.parameters)
    }

    @Test func malformedOffersThrow() {
        #expect(throws: WebSocketExtensionError.self) {
            try PerMessageDeflate.negotiate(offers: ["permessage-deflate; ="], configuration: Self.plain)
        }
    }

    @Test func clientOffers() {
        #expect(PerMessageDeflate.clientOffer(configuration: PerMessageDeflateConfiguration())
            == "permessage-deflate; server_no_context_takeover; client_no_context_takeover; client_max_window_bits")
        #expect(PerMessageDeflate.clientOffer(configuration: PerMessageDeflateConfiguration(
            serverNoContextTakeover: false, clientNoContextTakeover: true, serverMaxWindowBits: 10, clientMaxWindowBits: 11
        )) == "permessage-deflate; client_no_context_takeover; server_max_window_bits=10; client_max_window_bits=11")
    }

    @Test(arguments: [
        ("permessage-deflate", PerMessageDeflateParameters()),
        ("permessage-deflate; server_no_context_takeover", PerMessageDeflateParameters(serverNoContextTakeover: true)),
        ("permessage-deflate; client_no_context_takeover", PerMessageDeflateParameters(clientNoContextTakeover: true)),
        ("permessage-deflate; server_max_window_bits=9", PerMessageDeflateParameters(serverMaxWindowBits: 9)),
        ("permessage-deflate;client_max_window_bits=\"8\"", PerMessageDeflateParameters(clientMaxWindowBits: 8)),
    ])
    func clientAcceptsValidResponses(response: String, parameters: PerMessageDeflateParameters) throws {
        #expect(try PerMessageDeflate.acceptResponse(response, offered: Self.plain) == parameters)
    }

    @Test(arguments: [
        ("permessage-deflate; client_max_window_bits", WebSocketExtensionError.invalidValue(parameter: "client_max_window_bits", value: nil)),
        ("permessage-deflate; server_max_window_bits", .invalidValue(parameter: "server_max_window_bits", value: nil)),
        ("permessage-deflate; server_max_window_bits=16", .invalidValue(parameter: "server_max_window_bits", value: "16")),
        ("permessage-deflate; mystery", .unknownParameter("mystery")),
        ("permessage-deflate; client_no_context_takeover; client_no_context_takeover", .duplicateParameter("client_no_context_takeover")),
        ("x-other", .unexpectedExtension("x-other")),
        ("permessage-deflate, permessage-deflate", .unexpectedExtension("permessage-deflate")),
    ])
    func clientRejectsInvalidResponses(response: String, error: WebSocketExtensionError) {
        #expect(throws: error) { try PerMessageDeflate.acceptResponse(response, offered: Self.plain) }
    }

    @Test func clientRejectsAWindowLargerThanOffered() {
        let offered = PerMessageDeflateConfiguration(serverMaxWindowBits: 10, clientMaxWindowBits: 9)
        #expect(throws: WebSocketExtensionError.invalidValue(parameter: "server_max_window_bits", value: "12")) {
            try PerMessageDeflate.acceptResponse("permessage-deflate; server_max_window_bits=12", offered: offered)
        }
        #expect(throws: WebSocketExtensionError.invalidValue(parameter: "client_max_window_bits", value: "10")) {
            try PerMessageDeflate.acceptResponse("permessage-deflate; client_max_window_bits=10", offered: offered)
        }
    }
}
