import BoardApp
import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// A data directory the board wrote at app schema version 1, kept in the
/// repository (`Fixtures/board-v1`: 21 entries, snapshots at 8 and 16, a
/// todo and a `say` after them), so that every later version of the board
/// is tested against what version 1 really stored. It is copied before use.
///
/// Version 2 (``BoardMigrations``) gives todos a priority and calls `say`
/// `postMessage`: the snapshot's todos are migrated, the `say` after it is
/// upcast while replaying (version 2 cannot read a `say` otherwise), and
/// the epoch stays.
@Suite(.timeLimit(.minutes(1)))
struct BoardVersionOneFixtureTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/board-v1")
    static let epoch = "e-25927105d28eee063dbea89f1bef4598"

    /// A copy of the fixture at `directory/data`.
    static func copy(into directory: String) throws -> String {
        let data = directory + "/data"
        try FileManager.default.copyItem(atPath: fixture.path, toPath: data)
        return data
    }

    static func verify(_ data: String) async throws -> String {
        try await Subprocess.run([ServeProcess.executable.path, "verify", "--data", data]).output
    }

    @Test func theBoardMigratesWhatVersionOneStoredUnderTheSameEpoch() async throws {
        try await withTemporaryDirectory { directory in
            let data = try Self.copy(into: directory)
            #expect(try await Self.verify(data).contains("app schema versions: entries version 1 ×21; snapshots version 1 ×2"))

            let server = try ServeProcess(["serve", "--data", data, "--port", "0"])
            let port = try #require(try await server.waitForPort(), "\(server.standardError)")
            let client = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", schemaVersion: Board.schemaVersion)
            #expect(client.welcome["epoch"]?.stringValue == Self.epoch)
            #expect((client.welcome["rev"]?.int64Value ?? 0) >= 21)
            let state = try await Self.state(from: client)
            #expect(state["todos"]?.arrayValue?.map { $0["title"]?.stringValue ?? "" } == ["Milk", "Bread", "Eggs"])
            #expect(state["todos"]?.arrayValue?.map { $0["priority"] } == ["normal", "normal", "normal"], "the new field defaulted")
            #expect(state["todos"]?[0]?["done"] == true)
            #expect(state["counters"]?["hits"] == 3)
            #expect(state["chat"]?.arrayValue?.map { $0["text"]?.stringValue ?? "" } == ["hello", "bye"], "bye: a say upcast")

            // A client built for version 1 is told to upgrade, over the WebSocket and over HTTP.
            let old = try await ProtocolClient.connect("ws://127.0.0.1:\(port)/sync")
            try await old.send(#"{"type":"hello","schemaVersion":1}"#)
            #expect(try await old.receive("error")["code"] == "upgrade_required")
            _ = try await old.drainUntilClosed()
            #expect(old.closeCode == 4426)
            let oldHTTP = try await Curl.post(
                port: port, "/api/dispatch", #"{"type":"say","text":"hi"}"#, headers: ["StateSync-Schema-Version: 1"])
            #expect(oldHTTP.status == 400, "\(oldHTTP.body)")
            #expect(try oldHTTP.json["code"] == "upgrade_required", "\(oldHTTP.body)")

            // Version 2's actions apply to the migrated todos.
            try await client.send(#"{"type":"dispatch","id":"p1","action":{"type":"setPriority","id":"t5","priority":"high"}}"#)
            _ = try await client.receive("ack")
            try await client.send(#"{"type":"dispatch","id":"p2","action":{"type":"postMessage","text":"after the upgrade"}}"#)
            _ = try await client.receive("ack")
            let changed = try await Self.state(from: client)
            server.send(SIGTERM)
            #expect(await server.waitForExit() == 0)

            // Opened at version 2, the store was written as a snapshot of version 2; the old rows stay.
            let report = try await Self.verify(data)
            #expect(report.contains("entries version 1 ×21, version 2 ×"), "\(report)")
            #expect(report.contains("snapshots version 1 ×2, version 2 ×"), "\(report)")
            let again = try ServeProcess(["serve", "--data", data, "--port", "0"])
            let againPort = try #require(try await again.waitForPort(), "\(again.standardError)")
            let reader = try await ProtocolClient.joined("ws://127.0.0.1:\(againPort)/sync")
            #expect(reader.welcome["epoch"]?.stringValue == Self.epoch)
            var restarted = try await Self.state(from: reader)
            restarted["presence"] = changed["presence"]   // who is connected differs, nothing else
            #expect(restarted == changed)
            #expect(restarted["todos"]?[1]?["priority"] == "high")
            await again.stop()
        }
    }

    @Test func migratedOfflineItProvesTheHashAndStartsCurrent() async throws {
        try await withTemporaryDirectory { directory in
            let data = try Self.copy(into: directory)
            let dry = try await Subprocess.run([ServeProcess.executable.path, "migrate", "--data", data, "--dry-run"])
            #expect(dry.status == 0, "\(dry.errors)")
            #expect(dry.output.contains("main: schema version 1 → \(Board.schemaVersion) (revision 21, state "), "\(dry.output)")
            #expect(try await Self.verify(data).contains("snapshots version 1 ×2\n"), "a dry run writes nothing")

            let migrated = try await Subprocess.run([ServeProcess.executable.path, "migrate", "--data", data])
            #expect(migrated.status == 0, "\(migrated.errors)")
            let hash = { (output: String) in output.split(separator: "state ").last?.prefix(while: { $0 != ")" }) }
            #expect(hash(migrated.output) != nil && hash(migrated.output) == hash(dry.output), "\(migrated.output)")
            #expect(try await Self.verify(data).contains("snapshots version 1 ×2, version \(Board.schemaVersion) ×1\n"))
            let current = try await Subprocess.run([ServeProcess.executable.path, "migrate", "--data", data])
            #expect(current.output.hasPrefix("main: already at schema version \(Board.schemaVersion) (revision 21, state \(hash(migrated.output) ?? ""))"),
                    "\(current.output)")
        }
    }

    /// The whole state, from a `get` of `""`.
    private static func state(from client: ProtocolClient) async throws -> JSONObject {
        try await client.send(#"{"type":"get","id":"g","path":""}"#)
        return try #require(try await client.receive("value")["value"]?.objectValue)
    }
}
