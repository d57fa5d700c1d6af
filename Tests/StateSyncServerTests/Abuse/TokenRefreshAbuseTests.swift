import Foundation
import StateSyncCore
import StateSyncServer
import StateSyncTestSupport
import Testing

extension AbuseTests {
    /// A connection that floods `auth` with forged or oversized JWTs: each
    /// is refused saying why, the session verifies one at a time (it waits
    /// for each), and a bystander's dispatches are not held up.
    @Suite(.timeLimit(.minutes(1)))
    struct TokenRefreshAbuseTests {
        @Test func forgedAndOversizedTokensAreRefusedWithoutHoldingUpABystander() async throws {
            let pair = TestJWT.ES256Pair()
            var configuration = TestServer.configuration
            configuration.authentication = SessionAuthentication(
                tokens: [:], jwt: JWTAuthenticator(key: try JWTKey.parse(pair.publicPEM, source: "test.pem")))
            try await TestServer.with(configuration) { server in
                let token = try await pair.sign(TestClaims(role: "writer"))
                let bystander = try await ProtocolClient.joined(server.url, token: token, name: "bystander")
                let forged = try await TestJWT.ES256Pair().sign(TestClaims(role: "admin"))
                let oversized = String(repeating: "a", count: JWTAuthenticator.maxTokenBytes + 1)
                let flood = 300
                let url = server.url
                let answers = Task { () async throws -> (refusals: [JSONValue], afterwards: JSONValue) in
                    let abuser = try await ProtocolClient.joined(url, token: token, name: "abuser")
                    for index in 0..<flood {
                        let token = index.isMultiple(of: 2) ? forged : oversized
                        try await abuser.send(.object(["type": "auth", "id": .string("t\(index)"), "token": .string(token)]))
                    }
                    var answers: [JSONValue] = []
                    while answers.count < flood, let answer = try await abuser.next() { answers.append(answer) }
                    // The abuser's own session is still the writer it was.
                    try await abuser.send(#"{"type":"dispatch","id":"a1","action":{"type":"increment","counter":"hits"}}"#)
                    return (answers, try await abuser.receive())
                }
                var times: [Duration] = []
                for index in 0..<40 {
                    let start = ContinuousClock.now
                    try await bystander.send(.object([
                        "type": "dispatch", "id": .string("b\(index)"), "action": ["type": "increment", "counter": "hits"],
                    ]))
                    _ = try await bystander.receive("ack")
                    times.append(.now - start)
                }
                let (refusals, afterwards) = try await answers.value
                times.sort()
                let median = times[times.count / 2]
                #expect(median < .milliseconds(100), "bystander dispatch → ack median \(median) of \(times.count)")
                #expect(refusals.count == flood)
                #expect(refusals.allSatisfy { $0["type"] == "error" && $0["code"] == "unauthorized" })
                #expect(refusals.contains { $0["message"] == "the token was refused: its signature does not verify with the server's key" })
                #expect(refusals.contains { $0["message"] == "the token was refused: it is longer than 8192 bytes" })
                #expect(afterwards["type"] == "ack")
            }
        }
    }
}
