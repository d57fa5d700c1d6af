import GRDB
import Logging
import StateSyncCore
@testable import StateSyncSQLite
import StateSyncServer
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// The stores' SQLite file failing for good (a write the file refuses,
/// which no retry mends) fails every store it holds: `/health` must answer
/// 503 saying why, as it does for `main`'s journal, so that a load balancer
/// stops sending clients to a server that refuses their stores' writes.
@Suite(.timeLimit(.minutes(1)))
struct StoresFileFailureHealthTests {
    @Test func aStoresFileThatRefusesWritesMakesHealthAnswer503SayingWhy() async throws {
        try await withTemporaryDirectory { directory in
            let stores = try await SQLiteStores.open(configuration: .init(journal: .init(directory: directory)), logger: quietLogger)
            var configuration = TestServer.configuration
            configuration.storage = .journals("SQLite stores") { _ in stores }
            try await TestServer.with(configuration) { server in
                let client = try await ProtocolClient.joined(server.url)
                try await client.send(#"{"type":"dispatch","store":"team","id":"a1","action":{"type":"increment","counter":"n"}}"#)
                #expect(try await client.receive("ack")["store"] == "team")
                #expect(try await HTTPGet.get(port: server.port, path: "/health").status == 200)

                // The file's writer refuses every write from now on (SQLITE_READONLY: not retried).
                try await stores.pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA query_only = 1") }
                try await client.send(#"{"type":"dispatch","store":"team","id":"a2","action":{"type":"increment","counter":"n"}}"#)
                let refused = try await client.receive("reject")
                #expect(refused["id"] == "a2" && refused["code"] == "internal_error", "\(refused)")

                let health = try await HTTPGet.get(port: server.port, path: "/health")
                #expect(health.status == 503, "\(health.body)")
                let body = try JSONParser().parse(Array(health.body.utf8))
                #expect(body["status"] == "failed", "\(health.body)")
                #expect(body["reason"]?.stringValue?.contains("readonly") == true, "the reason names SQLite's refusal: \(health.body)")
                try await client.send(#"{"type":"get","store":"team","id":"g","path":"/counters/n"}"#)
                #expect(try await client.receive("value")["value"] == 1, "what was stored before is still read")
            }
        }
    }
}
