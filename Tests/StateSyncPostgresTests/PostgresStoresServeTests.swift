import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// Many stores on real `statesync serve --postgres` nodes: every store is
/// served by every node, stores stay apart, the node's connections do not
/// grow with its stores, and a store closes, reopens and is deleted as
/// with a data directory.
@Suite(.timeLimit(.minutes(3)), .serialized)
struct PostgresStoresServeTests {
    @Test func twoNodesServeEveryStoreAndKeepThemApart() async throws {
        try await TestPostgres.with { postgres in
            let one = try await ClusterNode.start(postgres)
            let two = try await ClusterNode.start(postgres)
            let watcher = try await ProtocolClient.joined(two.url)
            try await watcher.send(#"{"type":"subscribe","store":"x","id":"s","path":"/counters"}"#)
            #expect(try await watcher.receive("snapshot")["store"] == "x")

            // Node one writes to x, which node two has open, and to y, which it does not.
            let writer = try await ProtocolClient.joined(one.url, clientID: "w")
            try await writer.send(#"{"type":"dispatch","store":"x","id":"a1","action":{"type":"increment","counter":"in-x","by":3}}"#)
            try await writer.send(#"{"type":"dispatch","store":"y","id":"a2","action":{"type":"increment","counter":"in-y","by":5}}"#)
            var acked: Set<String> = []
            while acked.count < 2 {
                let answer = try await writer.receive()
                try #require(answer["type"] == "ack", "\(answer)")
                acked.insert(answer["store"]?.stringValue ?? "main")
            }
            #expect(acked == ["x", "y"])

            // Node two's subscriber of x sees node one's write of x, and nothing of y.
            while true {
                let message = try await watcher.receive("patch")
                #expect(message["store"] == "x")
                #expect(!"\(message)".contains("in-y"), "\(message)")
                if "\(message)".contains("in-x") { break }
            }
            try await watcher.send(#"{"type":"get","store":"x","id":"g1","path":"/counters"}"#)
            let x = try await watcher.receive("value")["value"]
            #expect(x?["in-x"]?.int64Value == 3)
            #expect(x?["in-y"] == nil)
            // y, opened on node two from PostgreSQL, holds node one's write; main holds neither.
            try await watcher.send(#"{"type":"get","store":"y","id":"g2","path":"/counters"}"#)
            let y = try await watcher.receive("value")["value"]
            #expect(y?["in-y"]?.int64Value == 5)
            #expect(y?["in-x"] == nil)
            try await watcher.send(#"{"type":"get","id":"g3","path":"/counters"}"#)
            let main = try await watcher.receive("value")["value"]
            #expect(main?["in-x"] == nil && main?["in-y"] == nil, "\(String(describing: main))")
            #expect(Set(try await StoresAPI.list(port: one.port).keys) == ["main", "x", "y"])
            #expect(Set(try await StoresAPI.list(port: two.port).keys) == ["main", "x", "y"])
            try await writer.close()
            try await watcher.close()
            await one.process.stop()
            await two.process.stop()
        }
    }

    @Test func fiftyStoresShareTheNodesBoundedConnections() async throws {
        try await TestPostgres.with { postgres in
            let node = try await ClusterNode.start(postgres, ["--postgres-writers", "2", "--max-stores-per-connection", "64"])
            let client = try await ProtocolClient.joined(node.url, clientID: "many")
            for index in 0..<50 {
                try await client.send(#"{"type":"dispatch","store":"s-\#(index)","id":"a\#(index)","action":{"type":"increment","counter":"n"}}"#)
            }
            var acks = 0
            while acks < 50 {
                let answer = try await client.receive()
                try #require(answer["type"] == "ack", "\(answer)")
                acks += 1
            }
            let stores = try await StoresAPI.list(port: node.port)
            #expect(stores.count == 51)
            #expect(stores.values.allSatisfy { $0 }, "every store is open")
            // Two writers, the reader, LISTEN, the heartbeat and the leases: 6, however many stores are open.
            let connections = try await PostgresQueries.text("""
                SELECT count(*)::text FROM pg_stat_activity WHERE datname = '\(TestPostgres.database)' AND pid <> pg_backend_pid()
                """, on: postgres)
            // At least the first writer, the reader, LISTEN, the heartbeat and the leases: the count is of this node's connections.
            #expect((5...6).contains(Int(connections ?? "") ?? 0), "\(connections ?? "?") connections")
            let keyed = try await PostgresQueries.text(
                "SELECT count(DISTINCT store_id)::text FROM statesync_journal WHERE store_id LIKE 'store:s-%'", on: postgres)
            #expect(keyed == "50")
            try await client.close()
            await node.process.stop()
        }
    }

    @Test func aStoppedNodesSessionsLeaveAStoreWhenItOpensAgain() async throws {
        try await TestPostgres.with { postgres in
            let first = try await ClusterNode.start(postgres)
            let client = try await ProtocolClient.joined(first.url, name: "gone")
            try await client.send(#"{"type":"subscribe","store":"room","id":"s","path":"/counters"}"#)
            _ = try await client.receive("snapshot")
            let rows = "SELECT count(*)::text FROM statesync_presence WHERE store_id = 'store:room'"
            #expect(try await eventually { try await PostgresQueries.text(rows, on: postgres) == "1" })
            // A clean stop leaves main's presence but journals nothing in room.
            await first.process.stop()
            #expect(try await PostgresQueries.text(rows, on: postgres) == "1")

            // The next node to open room (an HTTP read, no presence of its own) has the session leave.
            let second = try await ClusterNode.start(postgres)
            _ = try await second.body(of: "/api/stores/room/state?path=/counters")
            #expect(try await eventually {
                let state = try JSONParser().parse(Array(try await second.body(of: "/api/stores/room/state?path=/presence").utf8))
                return state["value"]?.objectValue?.isEmpty == true
            })
            #expect(try await PostgresQueries.text(rows, on: postgres) == "0")
            await second.process.stop()
        }
    }

    @Test func anIdleStoreClosesReopensAsItWasAndIsDeleted() async throws {
        try await TestPostgres.with { postgres in
            let node = try await ClusterNode.start(postgres, ["--store-idle-seconds", "1"])
            let client = try await ProtocolClient.joined(node.url, clientID: "c")
            try await client.send(#"{"type":"subscribe","store":"r","id":"s","path":"/counters"}"#)
            let epoch = try #require(try await client.receive("snapshot")["epoch"])
            for index in 0..<3 {
                try await client.send(#"{"type":"dispatch","store":"r","id":"a\#(index)","action":{"type":"increment","counter":"n"}}"#)
                while try await client.receive()["type"] != "ack" {}   // the patch of the counter may come first
            }
            try await client.close()
            try await StoresAPI.waitUntilClosed("r", port: node.port)
            let head = try await PostgresQueries.text(
                "SELECT head_revision::text FROM statesync_stores WHERE store_id = 'store:r'", on: postgres)

            // Reopened (an HTTP read adds no presence): the same state and revision, then the same epoch.
            let state = try JSONParser().parse(Array(try await node.body(of: "/api/stores/r/state?path=/counters/n").utf8))
            #expect(state["value"]?.int64Value == 3)
            #expect(state["rev"]?.int64Value.map(String.init) == head)
            let again = try await ProtocolClient.joined(node.url)
            try await again.send(#"{"type":"subscribe","store":"r","id":"s","path":"/counters"}"#)
            #expect(try await again.receive("snapshot")["epoch"] == epoch)
            try await again.close()

            // Deleted once the session left: every row of it, in every table.
            let deadline = ContinuousClock.now + .seconds(30)
            var deleted = try await StoresAPI.delete("r", port: node.port)
            while deleted.status == 409, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))   // the session leaves in another process
                deleted = try await StoresAPI.delete("r", port: node.port)
            }
            #expect(deleted.status == 200, "\(deleted.body)")
            for table in ["statesync_stores", "statesync_journal", "statesync_snapshots", "statesync_outcomes", "statesync_presence"] {
                let rows = try await PostgresQueries.text("SELECT count(*)::text FROM \(table) WHERE store_id = 'store:r'", on: postgres)
                #expect(rows == "0", "\(table) still holds the deleted store's rows")
            }
            #expect(try await StoresAPI.list(port: node.port)["r"] == nil)
            await node.process.stop()
        }
    }
}
