import StateSyncCore
import StateSyncTestSupport
import Testing

/// Isolation: random interleavings of actions on several stores, from
/// several connections, leave each store exactly as applying only its own
/// actions does.
@Suite(.timeLimit(.minutes(1)))
struct StoreIsolationTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func eachStoreEndsAsItsOwnActionsAlone(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let stores = ["main", "a", "b", "c"]
        let counters = ["x", "y", "z"]
        try await TestServer.with { server in
            let clients = [try await ProtocolClient.joined(server.url, clientID: "one"), try await ProtocolClient.joined(server.url, clientID: "two")]
            var expected: [String: [String: Int64]] = [:]
            var sent = [0, 0]
            for index in 0..<300 {
                let client = Int.random(in: 0..<2, using: &random)
                let store = stores.randomElement(using: &random)!
                let counter = counters.randomElement(using: &random)!
                let by = Int64.random(in: 1...9, using: &random)
                expected[store, default: [:]][counter, default: 0] += by
                try await clients[client].send(.object([
                    "type": "dispatch", "store": .string(store), "id": .string("a\(index)"),
                    "action": ["type": "increment", "counter": .string(counter), "by": .integer(by)],
                ]))
                sent[client] += 1
            }
            for (client, count) in zip(clients, sent) {
                var acks = 0
                while acks < count {
                    let message = try #require(try await client.next())
                    #expect(message["type"] != "reject", "\(message)")
                    if message["type"] == "ack" { acks += 1 }
                }
            }
            for store in stores {
                try await clients[0].send(.object(["type": "get", "store": .string(store), "id": "g", "path": "/counters"]))
                let value = try await clients[0].receive("value")
                var stored: [String: Int64] = [:]
                if let keys = value["value"]?.objectValue?.keys {
                    for key in keys { stored[key] = value["value"]?[key]?.int64Value }
                }
                #expect(stored == expected[store, default: [:]], "store \(store), seed \(seed)")
            }
        }
    }
}
