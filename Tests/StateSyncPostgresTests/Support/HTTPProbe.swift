import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// `/health` and `/metrics` of a `statesync serve` process, read with `curl`.
enum HTTPProbe {
    /// What `/health` answered.
    struct Health {
        var status: Int
        var body: JSONValue
    }

    /// The process that should answer exited before it did.
    struct ServerExited: Error, CustomStringConvertible {
        var description: String { "the server exited before /health answered" }
    }

    /// Polls `/health` on `port` every 50 ms until `condition` holds (there
    /// is nothing to await in another process), and returns that answer;
    /// fails after 30 s, or with ``ServerExited`` as soon as `server` (the
    /// process listening on `port`, when given) is gone.
    static func health(port: Int, of server: ServeProcess? = nil, until condition: (Health) -> Bool) async throws -> Health {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            if let server, !server.isRunning { throw ServerExited() }
            let (status, body) = try await get("/health", port: port)
            let answer = Health(status: status, body: (try? JSONParser().parse(body)) ?? .null)
            if condition(answer) { return answer }
            try #require(ContinuousClock.now < deadline, "/health stayed \(status): \(body)")
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The value of the metric `name` in `/metrics` on `port`, or `nil`.
    static func metric(_ name: String, port: Int) async throws -> Double? {
        let (_, body) = try await get("/metrics", port: port)
        return body.split(separator: "\n").first { $0.hasPrefix("\(name) ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// The session ids in `/presence` on `port`, read with `GET /api/state`
    /// (an unannounced request: it adds no presence of its own).
    static func presence(port: Int) async throws -> Set<String> {
        let (status, body) = try await get("/api/state?path=/presence", port: port)
        try #require(status == 200, "GET /api/state answered \(status): \(body)")
        let value = try JSONParser().parse(Array(body.utf8))["value"]
        return Set(try #require(value?.objectValue, "no presence object in \(body)").keys)
    }

    /// What `/health` on `port` says of who writes `main` (`this`, another
    /// node's id, `unknown`), or `nil` when it does not answer within a second.
    static func writerOfMain(port: Int) async throws -> String? {
        let (_, body) = try await get("/health", port: port, within: 1)
        return (try? JSONParser().parse(body))?["writer"]?.stringValue
    }

    /// `GET path`: the status and the body (status 0 when there was no answer within `seconds`).
    private static func get(_ path: String, port: Int, within seconds: Int = 20) async throws -> (Int, String) {
        let curl = try #require(Tools.tool("curl"), "curl is not on PATH: run scripts/test, or apt-get install curl")
        let result = try await Subprocess.run(
            [curl.path, "-s", "--max-time", "\(seconds)", "-w", "\n%{http_code}", "http://127.0.0.1:\(port)\(path)"])
        var lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.popLast() ?? "") ?? 0
        return (status, lines.joined(separator: "\n"))
    }
}
