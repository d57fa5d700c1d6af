import StateSyncProtocol
import Testing

/// One malformed message and the exact error it must produce.
struct ErrorCase: CustomTestStringConvertible, Sendable {
    let text: String
    let code: ErrorCode
    let id: String?
    let message: String

    var testDescription: String { text }

    /// Decodes ``text`` with `decode` and expects exactly this error.
    func expectError(from decode: ([UInt8]) throws(ProtocolError) -> some Any) throws {
        let error = try #require(throws: ProtocolError.self) { try decode(Array(text.utf8)) }
        #expect(error.code == code)
        #expect(error.id == id)
        #expect(error.message == message)
    }
}
