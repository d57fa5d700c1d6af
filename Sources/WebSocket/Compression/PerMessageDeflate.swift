/// Negotiation of the permessage-deflate extension (RFC 7692 §7.1), as strings in and out for the handshake.
///
/// ```swift
/// // Server:
/// if let (header, parameters) = try PerMessageDeflate.negotiate(offers: offers, configuration: config) {
///     response.headers.add(name: "Sec-WebSocket-Extensions", value: header)
/// }
/// // Client: send clientOffer(configuration:), then, when the 101 response has the header:
/// let parameters = try PerMessageDeflate.acceptResponse(responseHeader, offered: config)
/// ```
public enum PerMessageDeflate {
    /// The extension's registered name.
    public static let extensionName = "permessage-deflate"

    /// Chooses the first permessage-deflate offer the server can accept; offers that break RFC 7692 §7 or that the
    /// configuration cannot meet are declined one by one, as §5 requires.
    ///
    /// - Returns: the response header value and the agreed parameters, or `nil` to send no extensions header.
    /// - Throws: ``WebSocketExtensionError/malformedHeader(_:position:expected:)`` when a value does not parse
    ///   (answer HTTP 400).
    public static func negotiate(
        offers headerValues: [String],
        configuration: PerMessageDeflateConfiguration
    ) throws(WebSocketExtensionError) -> (responseHeader: String, parameters: PerMessageDeflateParameters)? {
        for offer in try WebSocketExtensionOffer.parse(headerValues) where offer.name == extensionName {
            guard let parameters = accept(offer, configuration: configuration) else { continue }
            let text = parameters.description
            return (text.isEmpty ? extensionName : "\(extensionName); \(text)", parameters)
        }
        return nil
    }

    /// The offer a client sends; it always includes `client_max_window_bits` so the server may limit the
    /// client's window.
    public static func clientOffer(configuration: PerMessageDeflateConfiguration) -> String {
        var parts = [extensionName]
        if configuration.serverNoContextTakeover { parts.append("server_no_context_takeover") }
        if configuration.clientNoContextTakeover { parts.append("client_no_context_takeover") }
        if let bits = configuration.serverMaxWindowBits { parts.append("server_max_window_bits=\(bits)") }
        parts.append(configuration.clientMaxWindowBits.map { "client_max_window_bits=\($0)" } ?? "client_max_window_bits")
        return parts.joined(separator: "; ")
    }

    /// Checks the server's response to ``clientOffer(configuration:)``; call it only when the response has a
    /// `Sec-WebSocket-Extensions` header (without one, compression is off).
    ///
    /// - Throws: ``WebSocketExtensionError`` for another or several extensions, bad parameters or a window larger
    ///   than offered: the client must then fail the connection.
    public static func acceptResponse(
        _ headerValue: String,
        offered configuration: PerMessageDeflateConfiguration
    ) throws(WebSocketExtensionError) -> PerMessageDeflateParameters {
        let elements = try WebSocketExtensionOffer.parse([headerValue])
        guard elements.count == 1, let response = elements.first, response.name == extensionName else {
            let offending = elements.first { $0.name != extensionName } ?? elements.last
            throw .unexpectedExtension(offending?.name ?? headerValue)
        }
        let values = try DeflateParameterValues(response.parameters)
        var parameters = PerMessageDeflateParameters(
            serverNoContextTakeover: values.serverNoContextTakeover,
            clientNoContextTakeover: values.clientNoContextTakeover || configuration.clientNoContextTakeover
        )
        if let bits = values.serverMaxWindowBits {
            guard let bits, bits <= configuration.serverMaxWindowBits ?? 15 else {
                throw .invalidValue(parameter: "server_max_window_bits", value: bits.map(String.init))
            }
            parameters.serverMaxWindowBits = bits
        }
        if let bits = values.clientMaxWindowBits {
            guard let bits, bits <= configuration.clientMaxWindowBits ?? 15 else {
                throw .invalidValue(parameter: "client_max_window_bits", value: bits.map(String.init))
            }
            parameters.clientMaxWindowBits = bits
        }
        return parameters
    }

    /// The server's answer to one offer, or `nil` to decline it.
    private static func accept(
        _ offer: WebSocketExtensionOffer,
        configuration: PerMessageDeflateConfiguration
    ) -> PerMessageDeflateParameters? {
        guard let values = try? DeflateParameterValues(offer.parameters) else {
            return nil  // RFC 7692 §5: an invalid offer is declined, and the next one tried.
        }
        // `server_max_window_bits` needs a value in an offer.
        if case .some(.none) = values.serverMaxWindowBits { return nil }
        var parameters = PerMessageDeflateParameters(
            serverNoContextTakeover: values.serverNoContextTakeover || configuration.serverNoContextTakeover,
            clientNoContextTakeover: values.clientNoContextTakeover || configuration.clientNoContextTakeover
        )
        let offeredServerBits = values.serverMaxWindowBits ?? nil
        parameters.serverMaxWindowBits = min(offeredServerBits ?? 15, configuration.serverMaxWindowBits ?? 15)
        switch values.clientMaxWindowBits {
        case .none:
            guard configuration.clientMaxWindowBits == nil else { return nil }
        case .some(let offered):
            parameters.clientMaxWindowBits = min(offered ?? 15, configuration.clientMaxWindowBits ?? 15)
        }
        return parameters
    }
}

/// The four permessage-deflate parameters of one offer or response, checked
/// for unknown names, repeats and values outside 8–15.
private struct DeflateParameterValues {
    var serverNoContextTakeover = false
    var clientNoContextTakeover = false
    /// `nil`: absent; `.some(nil)`: present without a value.
    var serverMaxWindowBits: Int??
    /// `nil`: absent; `.some(nil)`: present without a value.
    var clientMaxWindowBits: Int??

    init(_ parameters: [WebSocketExtensionOffer.Parameter]) throws(WebSocketExtensionError) {
        var seen: Set<String> = []
        for parameter in parameters {
            guard seen.insert(parameter.name).inserted else { throw .duplicateParameter(parameter.name) }
            switch parameter.name {
            case "server_no_context_takeover":
                guard parameter.value == nil else { throw .invalidValue(parameter: parameter.name, value: parameter.value) }
                serverNoContextTakeover = true
            case "client_no_context_takeover":
                guard parameter.value == nil else { throw .invalidValue(parameter: parameter.name, value: parameter.value) }
                clientNoContextTakeover = true
            case "server_max_window_bits":
                serverMaxWindowBits = .some(try Self.windowBits(parameter))
            case "client_max_window_bits":
                clientMaxWindowBits = .some(try Self.windowBits(parameter))
            default:
                throw .unknownParameter(parameter.name)
            }
        }
    }

    /// A value of 8–15 in decimal without leading zeros, or `nil` when the parameter has no value.
    private static func windowBits(_ parameter: WebSocketExtensionOffer.Parameter) throws(WebSocketExtensionError) -> Int? {
        guard let text = parameter.value else { return nil }
        guard let bits = Int(text), (8...15).contains(bits), String(bits) == text else {
            throw .invalidValue(parameter: parameter.name, value: text)
        }
        return bits
    }
}
