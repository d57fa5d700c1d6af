import BoardApp
import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// `statesync migrate --data DIR` on the board's data (at the board's
/// version): every store is reported current with its state hash and
/// nothing is written; a directory a server holds, or none, is refused.
@Suite(.timeLimit(.minutes(1)))
struct MigrateCommandTests {
    @Test func aCurrentDirectoryIsReportedStoreByStoreAndLeftAsItIs() async throws {
        try await withTemporaryDirectory { data in
            let server = try ServeProcess(["serve", "--data", data, "--port", "0"])
            let port = try #require(try await server.waitForPort(), "\(server.standardError)")
            let client = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync")
            try await client.send(.object(["type": "dispatch", "store": "team-a", "id": "a1",
                                           "action": ["type": "increment", "counter": "n"]]))
            _ = try await client.receive("ack")

            let held = try await Subprocess.run([ServeProcess.executable.path, "migrate", "--data", data])
            #expect(held.status == 1, "the running server holds the directory: \(held.output)")
            #expect(held.errors.contains(data), "\(held.errors)")

            server.send(SIGTERM)
            #expect(await server.waitForExit() == 0)
            let before = try await Subprocess.run([ServeProcess.executable.path, "verify", "--data", data]).output
            let result = try await Subprocess.run([ServeProcess.executable.path, "migrate", "--data", data])
            #expect(result.status == 0, "\(result.errors)")
            let lines = result.output.split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(lines)")
            #expect(lines.first?.hasPrefix("main: already at schema version \(Board.schemaVersion) (revision ") == true, "\(lines)")
            #expect(lines.dropFirst().first?.hasPrefix("store team-a: already at schema version \(Board.schemaVersion) (revision ") == true, "\(lines)")
            #expect(lines.last == "nothing to migrate")
            #expect(try await Subprocess.run([ServeProcess.executable.path, "verify", "--data", data]).output == before,
                    "the same entries and snapshots")

            let again = try await Subprocess.run([ServeProcess.executable.path, "migrate", "--data", data, "--dry-run"])
            #expect(again.output == result.output, "the same hashes each time")
        }
    }

    @Test func noDataDirectoryIsAFailureThatNamesIt() async throws {
        try await withTemporaryDirectory { parent in
            let missing = parent + "/nothing-here"
            let result = try await Subprocess.run([ServeProcess.executable.path, "migrate", "--data", missing])
            #expect(result.status == 1)
            #expect(result.errors.contains("no data directory at \(missing)"), "\(result.errors)")
            #expect(!FileManager.default.fileExists(atPath: missing), "nothing created")
        }
    }
}
