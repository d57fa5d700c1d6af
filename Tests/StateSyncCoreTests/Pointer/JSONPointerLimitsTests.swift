import StateSyncCore
import Testing

@Suite struct JSONPointerLimitsTests {
    private let limits = JSONPointer.Limits(maxTokens: 3, maxBytes: 12)

    @Test func aPointerWithinTheLimitsParses() throws {
        #expect(try JSONPointer(parsing: "/a/b/c", limits: limits).tokens == ["a", "b", "c"])
        #expect(try JSONPointer(parsing: "", limits: limits) == .root)
    }

    @Test func tooManyTokensIsRefusedNamingTheLimit() {
        #expect {
            _ = try JSONPointer(parsing: "/a/b/c/d", limits: limits)
        } throws: { error in
            (error as? JSONPointerError)?.description == #"JSON pointer "/a/b/c/d" has 4 tokens; at most 3 are accepted"#
                && (error as? JSONPointerError)?.isMalformedPointer == true
        }
    }

    @Test func tooManyBytesIsRefusedBeforeParsing() {
        // Malformed too (no leading slash): the length is checked first.
        #expect {
            _ = try JSONPointer(parsing: "x" + String(repeating: "~", count: 200), limits: limits)
        } throws: { error in
            let description = (error as? JSONPointerError)?.description ?? ""
            return description.hasSuffix("is 201 bytes long; at most 12 are accepted") && description.count < 200
        }
    }

    @Test func theDefaultsAre32TokensAnd1KiB() throws {
        #expect(JSONPointer.Limits() == JSONPointer.Limits(maxTokens: 32, maxBytes: 1_024))
        let deep = String(repeating: "/a", count: 33)
        #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: deep, limits: JSONPointer.Limits()) }
        #expect(try JSONPointer(parsing: String(repeating: "/a", count: 32), limits: JSONPointer.Limits()).tokens.count == 32)
    }
}
