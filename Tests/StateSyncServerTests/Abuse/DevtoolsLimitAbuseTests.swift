import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

extension AbuseTests {
    /// Hardening (issue 11, item 11): devtools requests are limited server-wide
    /// (`--max-devtools-requests`), since each time travel rebuilds a state:
    /// beyond the limit a request gets `503` at once, and the clients of the
    /// store keep their latency.
    @Suite(.timeLimit(.minutes(1)))
    struct DevtoolsLimitAbuseTests {
        @Test func concurrentTimeTravelBeyondTheLimitIsRefusedAndABystanderIsUnaffected() async throws {
            let (server, port) = try await ServeProcess.serving([
                "--max-devtools-requests", "2", "--snapshot-every", "1000000",
                "--messages-per-second", "100000", "--burst", "100000",
            ])
            let url = "ws://127.0.0.1:\(port)/sync"
            // A history that takes a while to replay: 4,000 actions, no snapshot.
            let writer = try await ProtocolClient.joined(url, clientID: "writer")
            for index in 0..<4_000 {
                try await writer.send(.object([
                    "type": "dispatch", "id": .string("a\(index)"), "action": ["type": "increment", "counter": "hits"],
                ]))
            }
            for _ in 0..<4_000 { _ = try await writer.receive("ack") }
            let bystander = try await ProtocolClient.joined(url, clientID: "bystander")

            let flood = Task { try await Self.parallelTimeTravel(port: port, revisions: 3_900...3_947) }
            // The bystander's dispatch during the flood is answered promptly.
            let start = ContinuousClock.now
            try await bystander.send(#"{"type":"dispatch","id":"b1","action":{"type":"increment","counter":"hits"}}"#)
            #expect(try await bystander.receive("ack")["id"] == "b1")
            #expect(ContinuousClock.now - start < .seconds(2))

            let responses = try await flood.value
            let statuses = responses.map(\.status)
            #expect(responses.count == 48)
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
            #expect(statuses.contains(200))
            let refused = try #require(responses.first { $0.status == 503 }, "no request was refused: \(statuses)")
            #expect(refused.headers["retry-after"] == "1")
            let error = try refused.json["error"]
            #expect(error?["code"] == "unavailable")
            #expect(error?["message"] == "2 devtools requests are being answered, the most the server answers at once; retry shortly")
            // Once they are answered, devtools work again.
            #expect(try await Curl.run(port: port, "/devtools/api/sessions").status == 200)
            await server.stop()
        }

        /// One `curl` making a time-travel request for each of `revisions` at
        /// once (all connections open together), and its responses.
        private static func parallelTimeTravel(port: Int, revisions: ClosedRange<Int>) async throws -> [Curl.Response] {
            let curl = try #require(Tools.tool("curl"), "curl is not on PATH: run scripts/test, or apt-get install curl")
            return try await withTemporaryDirectory { directory in
                let result = try await Subprocess.run([
                    curl.path, "-s", "-i", "--max-time", "30", "--parallel", "--parallel-immediate", "--parallel-max", "64",
                    "--create-dirs", "--output-dir", directory, "-o", "r#1",
                    "http://127.0.0.1:\(port)/devtools/api/state?rev=[\(revisions.lowerBound)-\(revisions.upperBound)]",
                ])
                #expect(result.status == 0, "curl: \(result.errors)")
                return try revisions.map { revision in
                    Curl.parse(try String(contentsOfFile: "\(directory)/r\(revision)", encoding: .utf8))
                }
            }
        }
    }
}
