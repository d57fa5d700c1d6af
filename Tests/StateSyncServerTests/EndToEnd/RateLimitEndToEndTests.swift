import StateSyncCore
import StateSyncServer
import StateSyncTestSupport
import Testing

/// The per-connection rate limit over real sockets measures when messages
/// arrived (issue 16), not when a stalled server got to them.
@Suite(.timeLimit(.minutes(1)))
struct RateLimitEndToEndTests {
    @Test func aSteadyClientIsNotRefusedAfterAServerStall() async throws {
        var configuration = TestServer.configuration
        configuration.session.messagesPerSecond = 2
        configuration.session.burst = 2
        configuration.session.rateLimitedMessagesBeforeClose = 3
        // Time moves only when the test moves it; the gate stalls the session.
        let clock = ManualClock()
        configuration.sessionClock = clock.now
        let gate = Gate()
        configuration.sessionWillHandleMessage = gate.whenOpen
        try await TestServer.with(configuration) { server in
            let client = try await ProtocolClient.joined(server.url)
            gate.close()
            defer { gate.open() }
            // One message a second (half the limit) while the session is stalled:
            // each is read, and stamped, before the clock moves on.
            let count = 6
            for index in 0..<count {
                clock.advance(by: .seconds(1))
                let readings = clock.readingCount
                try await client.send(.object(["type": "get", "id": .string("g\(index)"), "path": ""]))
                await clock.waitForReading(after: readings)
            }
            // The session now handles the six at once, at one instant of its own.
            gate.open()
            var replies: [String: JSONValue] = [:]
            for _ in 0..<count {
                let reply = try await client.receive()
                replies[reply["id"]?.stringValue ?? ""] = reply
            }
            for index in 0..<count {
                #expect(replies["g\(index)"]?["type"] == "value", "g\(index) was refused: \(replies)")
            }
            try await client.send(#"{"type":"get","id":"after","path":""}"#)
            #expect(try await client.receive("value")["id"] == "after")
        }
    }
}
