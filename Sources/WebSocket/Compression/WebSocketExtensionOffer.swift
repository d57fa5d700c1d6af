/// One element of a `Sec-WebSocket-Extensions` header: an extension name
/// with its parameters (RFC 6455 §9.1).
///
/// ```swift
/// let offers = try WebSocketExtensionOffer.parse([
///     "permessage-deflate; client_max_window_bits, permessage-deflate; server_max_window_bits=\"10\""
/// ])
/// offers[1].parameters[0]   // server_max_window_bits = "10" (quotes removed)
/// ```
public struct WebSocketExtensionOffer: Hashable, Sendable, CustomStringConvertible {
    /// One `name[=value]` parameter.
    public struct Parameter: Hashable, Sendable {
        /// The parameter's name.
        public var name: String
        /// Its value with any quoting removed, or `nil` when it has none.
        public var value: String?

        /// Creates a parameter.
        public init(name: String, value: String? = nil) {
            self.name = name
            self.value = value
        }
    }

    /// The extension's name, e.g. `permessage-deflate`.
    public var name: String
    /// The parameters, in header order.
    public var parameters: [Parameter]

    /// Creates an element.
    public init(name: String, parameters: [Parameter] = []) {
        self.name = name
        self.parameters = parameters
    }

    /// Parses every element of one or more header values, in order: RFC 6455 §9.1 with optional whitespace, empty
    /// elements and quoted-string values (whose content must be a token). Throws `malformedHeader`.
    public static func parse(_ headerValues: [String]) throws(WebSocketExtensionError) -> [WebSocketExtensionOffer] {
        var offers: [WebSocketExtensionOffer] = []
        for header in headerValues {
            var parser = ExtensionHeaderParser(header)
            offers += try parser.parseList()
        }
        return offers
    }

    /// The element as header text, e.g. `permessage-deflate; client_max_window_bits=10`.
    public var description: String {
        ([name] + parameters.map { parameter in parameter.value.map { "\(parameter.name)=\($0)" } ?? parameter.name })
            .joined(separator: "; ")
    }
}

/// A cursor over one header value, for ``WebSocketExtensionOffer/parse(_:)``.
private struct ExtensionHeaderParser {
    private let header: String
    private let bytes: [UInt8]
    private var index = 0

    init(_ header: String) {
        self.header = header
        self.bytes = Array(header.utf8)
    }

    mutating func parseList() throws(WebSocketExtensionError) -> [WebSocketExtensionOffer] {
        var offers: [WebSocketExtensionOffer] = []
        while true {
            skipWhitespace()
            if peek == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard index < bytes.count else { return offers }
            offers.append(try parseElement())
            skipWhitespace()
            guard index < bytes.count else { return offers }
            try expect(",")
        }
    }

    private mutating func parseElement() throws(WebSocketExtensionError) -> WebSocketExtensionOffer {
        var offer = WebSocketExtensionOffer(name: try token("an extension name"))
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: ";") else { return offer }
            index += 1
            skipWhitespace()
            var parameter = WebSocketExtensionOffer.Parameter(name: try token("a parameter name"))
            skipWhitespace()
            if peek == UInt8(ascii: "=") {
                index += 1
                skipWhitespace()
                parameter.value = peek == UInt8(ascii: "\"") ? try quotedToken() : try token("a parameter value")
            }
            offer.parameters.append(parameter)
        }
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
    }

    private mutating func expect(_ character: Unicode.Scalar) throws(WebSocketExtensionError) {
        guard peek == UInt8(ascii: character) else { throw failure("\"\(character)\"") }
        index += 1
    }

    private mutating func token(_ what: String) throws(WebSocketExtensionError) -> String {
        let start = index
        while let byte = peek, Self.isTokenCharacter(byte) { index += 1 }
        guard index > start else { throw failure(what) }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func quotedToken() throws(WebSocketExtensionError) -> String {
        let start = index
        index += 1
        var value: [UInt8] = []
        while let byte = peek, byte != UInt8(ascii: "\"") {
            if byte == UInt8(ascii: "\\") {
                index += 1
                guard let escaped = peek else { break }
                value.append(escaped)
            } else {
                value.append(byte)
            }
            index += 1
        }
        try expect("\"")
        guard !value.isEmpty, value.allSatisfy(Self.isTokenCharacter) else {
            index = start
            throw failure("a quoted token")
        }
        return String(decoding: value, as: UTF8.self)
    }

    private func failure(_ expected: String) -> WebSocketExtensionError {
        .malformedHeader(header, position: index, expected: expected)
    }

    /// RFC 7230 `tchar`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
