import StateSyncProtocol
import Testing

/// One malformed message and the exact error it must produce.
struct ErrorCase: CustomTestStringConvertible, Sendable {
    let text: String
    let code: ErrorCode
    let id: String?
    let message: String

    var testDescription: String { text }
}
