/// The status code of a close frame (RFC 6455 §7.4, IANA registry). Codes the RFC names have their own cases,
/// others (application codes 3000–4999 too) are ``unknown(_:)``; ``init(code:)`` maps 1000 to ``normalClosure``.
///
/// ```swift
/// let code = WebSocketCloseCode(code: 4001)   // .unknown(4001)
/// code.isValidOnWire                           // true: an application code
/// WebSocketCloseCode.abnormalClosure.isValidOnWire // false: reserved for reporting
/// ```
public enum WebSocketCloseCode: Hashable, Sendable, CustomStringConvertible {
    /// 1000: the purpose of the connection is fulfilled.
    case normalClosure
    /// 1001: the endpoint is going away (server shutdown, page navigated away).
    case goingAway
    /// 1002: the peer broke the protocol.
    case protocolError
    /// 1003: the endpoint cannot accept this kind of data (e.g. binary).
    case unsupportedData
    /// 1005: reported locally when a close frame had no status code; never sent.
    case noStatusReceived
    /// 1006: reported locally when the connection dropped without a close frame; never sent.
    case abnormalClosure
    /// 1007: message data was inconsistent with its type (e.g. invalid UTF-8 in text).
    case invalidPayloadData
    /// 1008: a message violated the endpoint's policy.
    case policyViolation
    /// 1009: a message was too big to process.
    case messageTooBig
    /// 1010: the client expected the server to negotiate an extension it did not.
    case mandatoryExtension
    /// 1011: the server hit an unexpected condition.
    case internalError
    /// 1012: the service is restarting.
    case serviceRestart
    /// 1013: try again later (temporary overload).
    case tryAgainLater
    /// 1014: a gateway or proxy got an invalid response upstream.
    case badGateway
    /// 1015: reported locally when the TLS handshake failed; never sent.
    case tlsHandshake
    /// Any other code, including application codes 3000–4999.
    case unknown(UInt16)

    /// Maps a numeric code to its named case, or ``unknown(_:)``.
    public init(code: UInt16) {
        switch code {
        case 1000: self = .normalClosure
        case 1001: self = .goingAway
        case 1002: self = .protocolError
        case 1003: self = .unsupportedData
        case 1005: self = .noStatusReceived
        case 1006: self = .abnormalClosure
        case 1007: self = .invalidPayloadData
        case 1008: self = .policyViolation
        case 1009: self = .messageTooBig
        case 1010: self = .mandatoryExtension
        case 1011: self = .internalError
        case 1012: self = .serviceRestart
        case 1013: self = .tryAgainLater
        case 1014: self = .badGateway
        case 1015: self = .tlsHandshake
        default: self = .unknown(code)
        }
    }

    /// The numeric code.
    public var code: UInt16 {
        switch self {
        case .normalClosure: 1000
        case .goingAway: 1001
        case .protocolError: 1002
        case .unsupportedData: 1003
        case .noStatusReceived: 1005
        case .abnormalClosure: 1006
        case .invalidPayloadData: 1007
        case .policyViolation: 1008
        case .messageTooBig: 1009
        case .mandatoryExtension: 1010
        case .internalError: 1011
        case .serviceRestart: 1012
        case .tryAgainLater: 1013
        case .badGateway: 1014
        case .tlsHandshake: 1015
        case .unknown(let code): code
        }
    }

    /// Whether the code may appear in a close frame: 1000–1003, 1007–1014 and 3000–4999; a received close frame
    /// with any other code is a protocol error (1002).
    public var isValidOnWire: Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// The number and name, e.g. `1000 normalClosure`.
    public var description: String {
        switch self {
        case .unknown(let code): "\(code)"
        default: "\(code) \(name)"
        }
    }

    private var name: String {
        switch self {
        case .normalClosure: "normalClosure"
        case .goingAway: "goingAway"
        case .protocolError: "protocolError"
        case .unsupportedData: "unsupportedData"
        case .noStatusReceived: "noStatusReceived"
        case .abnormalClosure: "abnormalClosure"
        case .invalidPayloadData: "invalidPayloadData"
        case .policyViolation: "policyViolation"
        case .messageTooBig: "messageTooBig"
        case .mandatoryExtension: "mandatoryExtension"
        case .internalError: "internalError"
        case .serviceRestart: "serviceRestart"
        case .tryAgainLater: "tryAgainLater"
        case .badGateway: "badGateway"
        case .tlsHandshake: "tlsHandshake"
        case .unknown: "unknown"
        }
    }
}
