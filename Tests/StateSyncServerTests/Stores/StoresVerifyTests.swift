import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// `statesync verify --data DIR` checks the stores' file and every store in
/// it too, and a damaged stores' file makes the whole directory `damaged`.
@Suite(.timeLimit(.minutes(1)))
struct StoresVerifyTests {
    @Test func verifyChecksEachStoreAndNamesTheDamagedOne() async throws {
        try await withTemporaryDirectory { data in
            let server = try ServeProcess(["serve", "--data", data, "--port", "0"])
            let port = try #require(try await server.waitForPort(), "\(server.standardError)")
            let client = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync")
            for store in ["team-a", "team-b"] {
                try await client.send(.object(["type": "dispatch", "store": .string(store), "id": .string(store),
                                               "action": ["type": "increment", "counter": "n"]]))
                _ = try await client.receive("ack")
            }
            server.send(SIGTERM)
            #expect(await server.waitForExit() == 0)

            let intact = try await Subprocess.run([ServeProcess.executable.path, "verify", "--data", data])
            #expect(intact.status == 0, "\(intact.output)")
            #expect(intact.output.contains("stores: SQLite quick_check: ok"), "\(intact.output)")
            for store in ["team-a", "team-b"] {
                #expect(intact.output.contains("store \(store): entries: "), "\(intact.output)")
            }
            #expect(intact.output.hasSuffix("intact\n"))

            // The stores' file loses its header: verify says so, and the directory is damaged.
            let file = try FileHandle(forWritingTo: URL(fileURLWithPath: data + "/stores.sqlite"))
            try file.write(contentsOf: Data(repeating: 0x5A, count: 100))
            try file.close()
            let damaged = try await Subprocess.run([ServeProcess.executable.path, "verify", "--data", data])
            #expect(damaged.status == 1)
            #expect(damaged.output.contains("stores: PROBLEM:"), "\(damaged.output)")
            #expect(!damaged.output.contains("\nPROBLEM:"), "main's journal is intact: \(damaged.output)")
            #expect(damaged.output.hasSuffix("damaged\n"))
        }
    }
}
