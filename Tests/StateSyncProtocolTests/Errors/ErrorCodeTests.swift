import StateSyncProtocol
import Testing

@Suite("ErrorCode and ConnectionPolicy")
struct ErrorCodeTests {
    @Test("every code of the protocol's table has its wire spelling and connection policy", arguments: [
        (ErrorCode.badJSON, "bad_json", ConnectionPolicy.staysOpen),
        (.unknownType, "unknown_type", .staysOpen),
        (.badRequest, "bad_request", .staysOpen),
        (.invalidPath, "invalid_path", .staysOpen),
        (.tooManySubscriptions, "too_many_subscriptions", .staysOpen),
        (.unsupportedBinary, "unsupported_binary", .staysOpen),
        (.forbidden, "forbidden", .staysOpen),
        (.invalidStore, "invalid_store", .staysOpen),
        (.limitReached, "limit_reached", .staysOpen),
        (.unavailable, "unavailable", .staysOpen),
        (.behind, "behind", .staysOpen),
        (.helloRequired, "hello_required", .closes(code: 1008)),
        (.unauthorized, "unauthorized", .closes(code: 1008)),
        (.rateLimited, "rate_limited", .closesWhenPersisting(code: 1008)),
        (.upgradeRequired, "upgrade_required", .closes(code: 4426)),
        (.schemaTooNew, "schema_too_new", .closes(code: 1013)),
    ])
    func table(code: ErrorCode, spelling: String, policy: ConnectionPolicy) {
        #expect(code.rawValue == spelling)
        #expect(code.connectionPolicy == policy)
        #expect(ErrorCode.policies[code] == policy)
    }

    @Test("the policy table lists exactly the protocol's sixteen codes")
    func tableSize() {
        #expect(ErrorCode.policies.count == 16)
    }

    @Test("policies expose their close codes as data")
    func policyFields() {
        #expect(ConnectionPolicy.staysOpen.closeCode == nil)
        #expect(ConnectionPolicy.staysOpen.closeCodeWhenPersisting == nil)
        #expect(!ConnectionPolicy.staysOpen.closesConnection)
        #expect(ErrorCode.helloRequired.connectionPolicy.closeCode == CloseCode.policyViolation)
        #expect(ErrorCode.unauthorized.connectionPolicy.closesConnection)
        #expect(ErrorCode.rateLimited.connectionPolicy.closeCode == nil)
        #expect(ErrorCode.rateLimited.connectionPolicy.closeCodeWhenPersisting == 1008)
        #expect(ErrorCode.rateLimited.connectionPolicy.description == "stays open; closes with 1008 if it persists")
    }

    @Test("unknown codes leave the connection open")
    func unknownCode() {
        #expect(ErrorCode(rawValue: "from_the_future").connectionPolicy == .staysOpen)
    }

    @Test("close codes are RFC 6455's")
    func closeCodes() {
        #expect(CloseCode.goingAway == 1001)
        #expect(CloseCode.policyViolation == 1008)
        #expect(CloseCode.messageTooBig == 1009)
    }

    @Test("reject codes have their wire spellings", arguments: [
        (RejectCode.invalidAction, "invalid_action"), (.notFound, "not_found"), (.forbidden, "forbidden"), (.rateLimited, "rate_limited"),
    ])
    func rejectCodes(code: RejectCode, spelling: String) {
        #expect(code.rawValue == spelling)
        #expect(code.description == spelling)
    }
}
