import StateSyncCore
import StateSyncProtocol
import Testing

@Suite("ProtocolError")
struct ProtocolErrorTests {
    @Test("the server's errors have their codes, ids and messages", arguments: [
        (ProtocolError.tooManySubscriptions(limit: 64, id: "s65"), ErrorCode.tooManySubscriptions, "s65",
         "too many subscriptions: at most 64 may be open on one connection"),
        (.unsupportedBinary, .unsupportedBinary, nil,
         "binary messages are not supported in statesync.v1; send JSON text messages"),
        (.helloRequired(received: "get", id: "g1"), .helloRequired, "g1", #"the first message must be "hello", not "get""#),
        (.unauthorized(tokenGiven: false), .unauthorized, nil, #"this server requires a token in "hello""#),
        (.unauthorized(tokenGiven: true), .unauthorized, nil, "the token is not valid"),
        (.rateLimited(messagesPerSecond: 100, id: "a9"), .rateLimited, "a9", "too many messages: at most 100 per second on one connection"),
        (.forbidden(path: JSONPointer(tokens: ["admin"]), role: .reader, id: "s3"), .forbidden, "s3", #"role reader may not read "/admin""#),
    ] as [(ProtocolError, ErrorCode, String?, String)])
    func serverErrors(error: ProtocolError, code: ErrorCode, id: String?, message: String) {
        #expect(error.code == code)
        #expect(error.id == id)
        #expect(error.message == message)
        #expect(error.description == "\(code): \(message)")
        #expect(ServerMessage.error(error) == .error(id: id, code: code, message: message))
    }

    @Test("a decoding error becomes the error message the server sends")
    func errorFrame() throws {
        let error = try #require(throws: ProtocolError.self) {
            try MessageDecoder().decodeClientMessage(Array(#"{"type":"get","id":"g1","path":"x"}"#.utf8))
        }
        let frame = MessageEncoder().encode(ServerMessage.error(error))
        #expect(String(decoding: frame, as: UTF8.self)
            == #"{"type":"error","id":"g1","code":"invalid_path","message":"invalid JSON pointer \"x\": it must be empty or start with \"/\""}"#)
    }

    @Test("a rejection becomes a reject message with its code")
    func rejectFromRejection() {
        let message = ServerMessage.reject(id: "a18", rejection: .notFound("no todo with id nope"))
        #expect(message == .reject(id: "a18", code: .notFound, message: "no todo with id nope"))
    }
}
