import TestProcessSupport
import Foundation
import StateSyncCore
import StateSyncTestSupport
import Testing

extension AbuseTests {
    /// Hardening (issue 11, item 7): a full disk does not stop writes forever.
    /// While the journal cannot write, the action it was writing waits (it is
    /// retried with backoff), new dispatches are refused with `unavailable` (no
    /// server path in the message), `/health` answers 503 with the reason and
    /// the metrics count the failures; once space is freed the writes resume
    /// without a restart, and every acknowledged action survives a SIGKILL.
    @Suite(.timeLimit(.minutes(1)))
    struct DiskFullAbuseTests {
        @Test func writesResumeAfterTheDiskIsFreedAndNothingAckedIsLost() async throws {
            try await withTemporaryDirectory { directory in
                let shim = try await DiskFullShim.build(in: directory + "/shim")
                let data = directory + "/data"
                let server = try ServeProcess(["serve", "--data", data, "--port", "0"], environment: shim.environment)
                let port = try #require(try await server.waitForPort(), "\(server.standardError)")
                let url = "ws://127.0.0.1:\(port)/sync"
                let writer = try await ProtocolClient.joined(url, clientID: "c-writer", name: "writer")
                let bystander = try await ProtocolClient.joined(url, name: "bystander")
                for index in 0..<5 {
                    try await writer.send(Self.addTodo("a\(index)", title: "before \(index)"))
                    _ = try await writer.receive("ack")
                }

                try shim.fill()
                // The first action after the fault is accepted and waits for its write.
                try await writer.send(Self.addTodo("held", title: "held"))
                let failing = try await Self.health(port: port) { $0.status == 503 }
                let report = try failing.json
                #expect(report["status"] == "storage_failing")
                #expect(report["reason"]?.stringValue?.contains("the disk is full") == true, "\(report)")
                #expect(failing.body.contains(data) == false)

                // New dispatches are refused at once, with a reason but no path.
                try await writer.send(Self.addTodo("refused", title: "refused"))
                let refused = try await writer.receive("reject")
                #expect(refused["id"] == "refused")
                #expect(refused["code"] == "unavailable")
                let message = try #require(refused["message"]?.stringValue)
                #expect(message.contains("the disk is full"), "\(message)")
                #expect(!message.contains(directory) && !message.contains("/"), "\(message)")
                let viaHTTP = try await Curl.post(port: port, "/api/dispatch", #"{"action":{"type":"addTodo","title":"http"}}"#)
                #expect(viaHTTP.status == 503, "\(viaHTTP.body)")

                // A bystander still reads, promptly.
                let started = ContinuousClock.now
                try await bystander.send(#"{"type":"get","id":"g1","path":"/todos"}"#)
                let value = try await bystander.receive("value")
                #expect(ContinuousClock.now - started < .seconds(2))
                #expect(value["value"]?.arrayValue?.count == 5)
                let metrics = try await Curl.run(port: port, "/metrics")
                let failures = metrics.body.split(separator: "\n")
                    .first { $0.hasPrefix("statesync_journal_write_failures_total ") }
                    .flatMap { Double($0.split(separator: " ").last ?? "") }
                #expect((failures ?? 0) >= 1, "\(metrics.body)")

                // Space is freed: the held action is written and acknowledged, without a restart.
                try shim.free()
                let held = try await writer.receive("ack")
                #expect(held["id"] == "held")
                _ = try await Self.health(port: port) { $0.status == 200 }
                try await writer.send(Self.addTodo("after", title: "after"))
                _ = try await writer.receive("ack")

                // Every acknowledged action survives a SIGKILL.
                server.send(SIGKILL)
                _ = await server.waitForExit()
                let restarted = try ServeProcess(["serve", "--data", data, "--port", "0"])
                let newPort = try #require(try await restarted.waitForPort(), "\(restarted.standardError)")
                let reader = try await ProtocolClient.joined("ws://127.0.0.1:\(newPort)/sync", name: "reader")
                try await reader.send(#"{"type":"get","id":"g2","path":"/todos"}"#)
                let titles = try await reader.receive("value")["value"]?.arrayValue?.compactMap { $0["title"]?.stringValue }
                #expect(titles == ["before 0", "before 1", "before 2", "before 3", "before 4", "held", "after"])
                await restarted.stop()
            }
        }

        private static func addTodo(_ id: String, title: String) -> JSONValue {
            .object(["type": "dispatch", "id": .string(id), "action": ["type": "addTodo", "title": .string(title)]])
        }

        /// Polls `/health` until `condition` holds (there is nothing to await in
        /// another process); fails after 20 s.
        private static func health(port: Int, until condition: (Curl.Response) -> Bool) async throws -> Curl.Response {
            let deadline = ContinuousClock.now + .seconds(20)
            while true {
                let response = try await Curl.run(port: port, "/health")
                if condition(response) { return response }
                try #require(ContinuousClock.now < deadline, "/health stayed \(response.status): \(response.body)")
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }
}
