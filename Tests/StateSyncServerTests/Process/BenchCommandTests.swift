import Foundation
import StateSyncCore
import Testing
import StateSyncTestSupport

/// The real `statesync bench --spawn-server`: a short broadcast run in which
/// every expected delivery must arrive, with no gap and no error.
@Suite(.timeLimit(.minutes(1)))
struct BenchCommandTests {
    private static func temporaryFile(_ name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("statesync-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent(name).path
    }

    @Test func shortBroadcastRunCountsEveryDelivery() async throws {
        let json = try Self.temporaryFile("result.json")
        let report = try Self.temporaryFile("report.html")
        let clients = 50
        let bench = try ServeProcess([
            "bench", "--spawn-server", "--clients", "\(clients)", "--writers", "2", "--rate", "20", "--duration", "2",
            "--json", json, "--report", report, "--quiet",
        ])
        let status = await bench.waitForExit()
        #expect(status == 0, "stdout: \(bench.standardOutput)\nstderr: \(bench.standardError)")
        #expect(bench.standardOutput.contains("RESULT clients=\(clients) "))

        let result = try JSONValue(parsing: try String(contentsOfFile: json, encoding: .utf8))
        let counts = try #require(result["counts"])
        let acked = try #require(counts["acked"]?.intValue)
        #expect(acked >= 30, "20 actions/s for 2 s should be acked: \(acked)")
        #expect(counts["actionsSent"]?.intValue == acked)
        #expect(counts["rejected"]?.intValue == 0)
        #expect(counts["gaps"]?.intValue == 0)
        #expect(counts["errors"]?.intValue == 0)
        #expect(counts["expectedDeliveries"]?.intValue == acked * clients)
        #expect(counts["deliveries"]?.intValue == acked * clients)
        #expect(result["deliveryLatency"]?["count"]?.intValue == acked * clients)
        #expect(result["ackLatency"]?["count"]?.intValue == acked)
        #expect(result["rampUp"]?["connected"]?.intValue == clients)
        // The spawned server was measured.
        #expect((result["server"]?["rssIdleBytes"]?.intValue ?? 0) > 0)
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("<svg"))
    }

    @Test func aRunOverStoresReportsTheSlowestStore() async throws {
        let json = try Self.temporaryFile("result.json")
        let bench = try ServeProcess([
            "bench", "--spawn-server", "--clients", "30", "--writers", "3", "--stores", "3", "--rate", "15", "--duration", "2",
            "--json", json, "--quiet",
        ])
        let status = await bench.waitForExit()
        #expect(status == 0, "stdout: \(bench.standardOutput)\nstderr: \(bench.standardError)")
        #expect(bench.standardOutput.contains(" stores=3 slowest_store_p99_ms="), "\(bench.standardOutput)")
        #expect(bench.standardOutput.contains("stores      3 (bench-0…), slowest bench-"), "\(bench.standardOutput)")
        let result = try JSONValue(parsing: try String(contentsOfFile: json, encoding: .utf8))
        let acked = try #require(result["counts"]?["acked"]?.intValue)
        #expect(acked >= 20)
        // Each store's 10 clients hear its own writer's increments only.
        #expect(result["counts"]?["deliveries"]?.intValue == acked * 10)
        #expect(result["counts"]?["gaps"]?.intValue == 0)
        #expect(result["stores"]?["stores"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["bench-0", "bench-1", "bench-2"])
    }

    @Test func aSpawnedServerTakesMoreStoresThanItsDefaultsAllow() async throws {
        // 150 stores created at once from one address: past the default burst of 100 creations.
        let json = try Self.temporaryFile("result.json")
        let bench = try ServeProcess([
            "bench", "--spawn-server", "--clients", "150", "--writers", "1", "--stores", "150", "--duration", "1",
            "--json", json, "--quiet",
        ])
        let status = await bench.waitForExit()
        #expect(status == 0, "stdout: \(bench.standardOutput)\nstderr: \(bench.standardError)")
        let result = try JSONValue(parsing: try String(contentsOfFile: json, encoding: .utf8))
        #expect(result["counts"]?["errors"]?.intValue == 0)
        #expect(result["rampUp"]?["connected"]?.intValue == 150)
    }

    @Test func refusesMoreWritersThanClients() async throws {
        let bench = try ServeProcess(["bench", "--clients", "2", "--writers", "3", "--url", "ws://127.0.0.1:9/sync"])
        #expect(await bench.waitForExit() == 1)
        #expect(bench.standardError.contains("--writers 3: must be from 0 to the number of clients (2)"))
    }

    @Test func reportsAServerNoClientCanReach() async throws {
        let bench = try ServeProcess(["bench", "--clients", "3", "--duration", "1", "--url", "ws://127.0.0.1:9/sync", "--quiet"])
        #expect(await bench.waitForExit() == 1)
        #expect(bench.standardError.contains("statesync: no client could connect to ws://127.0.0.1:9/sync"), "\(bench.standardError)")
    }
}
