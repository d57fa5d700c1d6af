import Foundation
import StateSyncCore
import TestProcessSupport
import Testing

/// `GET /api/stores` and `DELETE /api/stores/NAME` of a `statesync serve`
/// process, with `curl` (the server's authentication open: everyone may).
package enum StoresAPI {
    /// The stores `GET /api/stores` lists: each one's name and whether it is open.
    package static func list(port: Int) async throws -> [String: Bool] {
        let (status, body) = try await request("GET", "/api/stores", port: port)
        try #require(status == 200, "GET /api/stores answered \(status): \(body)")
        var stores: [String: Bool] = [:]
        for store in try JSONParser().parse(body)["stores"]?.arrayValue ?? [] {
            if let name = store["name"]?.stringValue { stores[name] = store["open"]?.boolValue ?? false }
        }
        return stores
    }

    /// `DELETE /api/stores/NAME`: the status and the body.
    package static func delete(_ store: String, port: Int) async throws -> (status: Int, body: String) {
        try await request("DELETE", "/api/stores/\(store)", port: port)
    }

    /// Polls `GET /api/stores` every 50 ms (there is nothing to await in
    /// another process) until `store` is listed closed; fails after 30 s.
    package static func waitUntilClosed(_ store: String, port: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while try await list(port: port)[store] != false {
            try #require(ContinuousClock.now < deadline, "the store \(store) did not close")
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    private static func request(_ method: String, _ path: String, port: Int) async throws -> (status: Int, body: String) {
        let curl = try #require(Tools.tool("curl"), "curl is not on PATH: run scripts/test, or apt-get install curl")
        let result = try await Subprocess.run(
            [curl.path, "-s", "--max-time", "20", "-X", method, "-w", "\n%{http_code}", "http://127.0.0.1:\(port)\(path)"])
        var lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.popLast() ?? "") ?? 0
        return (status, lines.joined(separator: "\n"))
    }
}
