import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// A data directory the board wrote at app schema version 1, kept in the
/// repository (`Fixtures/board-v1`: 21 entries, snapshots at 8 and 16, its
/// last actions after them), so that every later version of the board is
/// tested against what version 1 really stored. It is copied before use.
@Suite(.timeLimit(.minutes(1)))
struct BoardVersionOneFixtureTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/board-v1")
    static let epoch = "e-25927105d28eee063dbea89f1bef4598"

    @Test func theBoardReadsWhatVersionOneStoredUnderTheSameEpoch() async throws {
        try await withTemporaryDirectory { directory in
            let data = directory + "/data"
            try FileManager.default.copyItem(atPath: Self.fixture.path, toPath: data)
            let report = try await Subprocess.run([ServeProcess.executable.path, "verify", "--data", data])
            #expect(report.output.contains("app schema versions: entries version 1 ×21; snapshots version 1 ×2"), "\(report.output)")

            let server = try ServeProcess(["serve", "--data", data, "--port", "0"])
            let port = try #require(try await server.waitForPort(), "\(server.standardError)")
            let client = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync")
            #expect(client.welcome["epoch"]?.stringValue == Self.epoch)
            #expect((client.welcome["rev"]?.int64Value ?? 0) >= 21)
            try await client.send(#"{"type":"get","id":"g","path":""}"#)
            let state = try await client.receive("value")["value"]
            #expect(state?["todos"]?.arrayValue?.map { $0["title"]?.stringValue ?? "" } == ["Milk", "Bread", "Eggs"])
            #expect(state?["todos"]?[0]?["done"] == true)
            #expect(state?["counters"]?["hits"] == 3)
            #expect(state?["chat"]?.arrayValue?.map { $0["text"]?.stringValue ?? "" } == ["hello", "bye"])
            await server.stop()
        }
    }
}
