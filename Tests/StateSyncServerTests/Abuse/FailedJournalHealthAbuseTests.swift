import Foundation
import StateSyncCore
import StateSyncJournal
import StateSyncServer
import StateSyncTestSupport
import Testing

extension AbuseTests {
    /// A journal that failed for good (issue 27, item 5): the engine accepts
    /// no more actions, and `/health` says so with 503 (`failed`), so a load
    /// balancer stops sending clients to a node that would refuse them all.
    /// Reads still work for the clients already there.
    @Suite(.timeLimit(.minutes(1)))
    struct FailedJournalHealthAbuseTests {
        @Test func aJournalThatFailedForGoodMakesHealthAnswer503() async throws {
            let journal = CountingJournal()
            var configuration = TestServer.configuration
            configuration.storage = .journal("failing memory") { _ in journal }
            try await TestServer.with(configuration) { server in
                let writer = try await ProtocolClient.joined(server.url, clientID: "c-writer", name: "writer")
                try await writer.send(#"{"type":"dispatch","id":"a1","action":{"type":"addTodo","title":"stored"}}"#)
                _ = try await writer.receive("ack")
                let healthy = try await HTTPGet.get(port: server.port, path: "/health")
                #expect(healthy.status == 200, "\(healthy.body)")

                journal.failAppends(with: .storage("the test storage", operation: "write a batch", message: "read-only"))
                try await writer.send(#"{"type":"dispatch","id":"a2","action":{"type":"addTodo","title":"lost"}}"#)
                let rejected = try await writer.receive("reject")
                #expect(rejected["code"] == "internal_error")

                let failed = try await HTTPGet.get(port: server.port, path: "/health")
                #expect(failed.status == 503, "\(failed.body)")
                let report = try JSONParser().parse(Array(failed.body.utf8))
                #expect(report["status"] == "failed", "\(failed.body)")
                #expect(report["reason"]?.stringValue?.contains("accepts no more actions") == true, "\(failed.body)")

                try await writer.send(#"{"type":"get","id":"g1","path":"/todos"}"#)
                let value = try await writer.receive("value")
                #expect(value["value"]?.arrayValue?.count == 1)
            }
        }
    }
}
