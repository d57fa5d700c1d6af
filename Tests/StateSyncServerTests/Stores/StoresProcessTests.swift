import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// Many stores in the real `statesync serve`: SIGKILL while writing to 50
/// stores loses no acknowledged action in any of them, and each comes back
/// with its own epoch.
@Suite(.timeLimit(.minutes(2)))
struct StoresProcessTests {
    @Test func sigkillWhileWritingToFiftyStoresLosesNoAcknowledgedAction() async throws {
        try await withTemporaryDirectory { data in
            let stores = (0..<50).map { "s-\($0)" }
            let first = try ServeProcess(["serve", "--port", "0", "--data", data, "--max-stores-per-connection", "64"])
            let port = try #require(try await first.waitForPort(), "no URL printed: \(first.standardError)")
            let writer = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", clientID: "c-writer")
            // Four rounds over the 50 stores, all sent at once; the server is killed after the 100th ack.
            for round in 0..<4 {
                for store in stores {
                    try await writer.send(.object([
                        "type": "dispatch", "store": .string(store), "id": .string("a-\(store)-\(round)"),
                        "action": ["type": "increment", "counter": "n"],
                    ]))
                }
            }
            var acked: [String: Int] = [:]
            var acks = 0
            while acks < 100, let message = try await writer.next() {
                guard message["type"] == "ack", let store = message["store"]?.stringValue else { continue }
                acked[store, default: 0] += 1
                acks += 1
            }
            first.send(SIGKILL)
            _ = await first.waitForExit()
            #expect(acks == 100)

            let second = try ServeProcess(["serve", "--port", "0", "--data", data, "--max-stores-per-connection", "64"])
            let port2 = try #require(try await second.waitForPort(), "no URL printed: \(second.standardError)")
            let reader = try await ProtocolClient.joined("ws://127.0.0.1:\(port2)/sync")
            var epochs: Set<String> = []
            for store in stores {
                try await reader.send(.object(["type": "get", "store": .string(store), "id": .string(store), "path": "/counters/n"]))
                let value = try await reader.receive("value")
                let count = Int(value["value"]?.int64Value ?? 0)
                #expect(count >= acked[store, default: 0], "\(store): \(count) stored, \(acked[store, default: 0]) acknowledged")
                #expect(count <= 4)
                if let epoch = value["epoch"]?.stringValue { epochs.insert(epoch) }
            }
            #expect(epochs.count == 50, "each store has its own epoch")
            second.send(SIGTERM)
            #expect(await second.waitForExit() == 0)
        }
    }
}
