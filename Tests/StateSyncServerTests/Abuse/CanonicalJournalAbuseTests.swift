import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

extension AbuseTests {
    /// Hardening (issue 11, item 5): the journal keeps the action the app
    /// decoded (its canonical `wireValue`), never the object as sent, so fields
    /// the app does not know cannot grow the data directory or a `--memory`
    /// server (314 KiB compressed on the wire took +298 MB of RSS; 105 KiB grew
    /// the data directory by 114 MB).
    @Suite(.timeLimit(.minutes(1)))
    struct CanonicalJournalAbuseTests {
        /// A board action padded with an unknown field of `bytes` bytes.
        private static func padded(_ index: Int, bytes: Int) -> JSONValue {
            let action: JSONValue = ["type": "increment", "counter": "hits", "pad": .string(String(repeating: "x", count: bytes))]
            return ["type": "dispatch", "id": .string("p\(index)"), "action": action]
        }

        private static func directorySize(_ path: String) throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: path).reduce(0) { total, name in
                let attributes = try FileManager.default.attributesOfItem(atPath: path + "/" + name)
                return total + ((attributes[.size] as? Int) ?? 0)
            }
        }

        /// Sends 40 padded actions (36 MB, a few KB compressed) and checks every ack.
        private static func flood(_ url: String) async throws {
            let attacker = try await ProtocolClient.joined(url, clientID: "padder")
            for index in 0..<40 {
                try await attacker.send(padded(index, bytes: 900_000))
                #expect(try await attacker.receive("ack")["id"] == .string("p\(index)"))
            }
        }

        /// The bystander's dispatch is answered at once and counts every padded one.
        private static func checkBystander(_ bystander: ProtocolClient) async throws {
            let start = ContinuousClock.now
            try await bystander.send(#"{"type":"dispatch","id":"b1","action":{"type":"increment","counter":"hits"}}"#)
            #expect(try await bystander.receive("ack")["id"] == "b1")
            #expect(ContinuousClock.now - start < .seconds(2))
            try await bystander.send(#"{"type":"get","id":"g","path":"/counters/hits"}"#)
            #expect(try await bystander.receive("value")["value"] == 41)
        }

        @Test func unknownFieldsDoNotReachTheDataDirectory() async throws {
            try await withTemporaryDirectory { directory in
                let server = try ServeProcess(["serve", "--port", "0", "--data", directory, "--bytes-per-second", "100000000"])
                let port = try #require(try await server.waitForPort(), "no URL printed: \(server.standardError)")
                let url = "ws://127.0.0.1:\(port)/sync"
                let bystander = try await ProtocolClient.joined(url, clientID: "bystander")
                let before = try Self.directorySize(directory)
                try await Self.flood(url)
                try await Self.checkBystander(bystander)
                let after = try Self.directorySize(directory)
                #expect(after - before < 1 << 20, "the data directory grew from \(before) to \(after) bytes")

                // The journal holds the decoded action, as the devtools show it.
                let journal = try await Curl.run(port: port, "/devtools/api/journal?from=1&through=100")
                let entries = try #require(try journal.json["entries"]?.arrayValue)
                let padded = entries.filter { $0["actionId"] == "p0" }
                #expect(padded.map { $0["action"] } == [["type": "increment", "counter": "hits", "by": 1]])
                await server.stop()
            }
        }

        @Test func unknownFieldsDoNotGrowAMemoryServer() async throws {
            let (server, port) = try await ServeProcess.serving(["--bytes-per-second", "100000000"])
            let url = "ws://127.0.0.1:\(port)/sync"
            let bystander = try await ProtocolClient.joined(url, clientID: "bystander")
            let before = try #require(server.residentBytes)
            try await Self.flood(url)
            try await Self.checkBystander(bystander)
            let after = try #require(server.residentBytes)
            #expect(after - before < 16 << 20, "RSS grew from \(before) to \(after) bytes")
            await server.stop()
        }
    }
}
