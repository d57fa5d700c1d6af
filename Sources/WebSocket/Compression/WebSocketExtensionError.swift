/// A `Sec-WebSocket-Extensions` header that does not parse (a server answers 400), or a permessage-deflate
/// response a client must refuse by failing the connection (RFC 7692 §5).
public struct WebSocketExtensionError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case malformedHeader(String, position: Int, expected: String)
        case unexpectedExtension(String)
        case unknownParameter(String)
        case duplicateParameter(String)
        case invalidValue(parameter: String, value: String?)
        case unrequestedParameter(String)
        case notSupported(String)
    }

    private let base: Base

    private init(_ base: Base) {
        self.base = base
    }

    /// The header value does not follow RFC 6455 §9.1; `position` is the
    /// UTF-8 offset of the offending byte, `expected` what should have been there.
    public static func malformedHeader(_ header: String, position: Int, expected: String) -> Self {
        Self(.malformedHeader(header, position: position, expected: expected))
    }
    /// A response named an extension (given) that was not offered, or more than one.
    public static func unexpectedExtension(_ name: String) -> Self { Self(.unexpectedExtension(name)) }
    /// A parameter (given) that permessage-deflate does not define.
    public static func unknownParameter(_ name: String) -> Self { Self(.unknownParameter(name)) }
    /// A parameter (given) that appears twice.
    public static func duplicateParameter(_ name: String) -> Self { Self(.duplicateParameter(name)) }
    /// A parameter with a missing, extra or out-of-range value.
    public static func invalidValue(parameter: String, value: String?) -> Self {
        Self(.invalidValue(parameter: parameter, value: value))
    }
    /// A response parameter (given) that the offer did not allow.
    public static func unrequestedParameter(_ name: String) -> Self { Self(.unrequestedParameter(name)) }
    /// A configuration this implementation cannot use; the text says which.
    public static func notSupported(_ reason: String) -> Self { Self(.notSupported(reason)) }

    /// What was wrong, naming the offending value.
    public var description: String {
        switch base {
        case .malformedHeader(let header, let position, let expected):
            "malformed extension header \"\(header)\" at byte \(position): expected \(expected)"
        case .unexpectedExtension(let name): "unexpected extension \"\(name)\" in response"
        case .unknownParameter(let name): "unknown permessage-deflate parameter \"\(name)\""
        case .duplicateParameter(let name): "permessage-deflate parameter \"\(name)\" given twice"
        case .invalidValue(let parameter, let value):
            "invalid value \(value.map { "\"\($0)\"" } ?? "(none)") for permessage-deflate parameter \"\(parameter)\""
        case .unrequestedParameter(let name): "response parameter \"\(name)\" was not allowed by the offer"
        case .notSupported(let reason): "not supported: \(reason)"
        }
    }
}
