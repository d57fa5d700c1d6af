import Foundation
import StateSyncCore
import TestProcessSupport
import Testing

/// `/health` of a `statesync serve` process, read with `curl` (there is
/// nothing to await in another process, so it is polled).
enum HealthProbe {
    /// What `/health` answered.
    struct Answer {
        var status: Int
        var body: JSONValue
    }

    /// Polls `/health` on `port` every 50 ms until `condition` holds, and
    /// returns that answer; fails after 30 s.
    static func poll(port: Int, until condition: (Answer) -> Bool) async throws -> Answer {
        let curl = try #require(Tools.tool("curl"), "curl is not on PATH: run scripts/test, or apt-get install curl")
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let result = try await Subprocess.run(
                [curl.path, "-s", "--max-time", "20", "-w", "\n%{http_code}", "http://127.0.0.1:\(port)/health"])
            let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
            let answer = Answer(
                status: Int(lines.last ?? "") ?? 0,
                body: (try? JSONParser().parse(lines.dropLast().joined(separator: "\n"))) ?? .null)
            if condition(answer) { return answer }
            try #require(ContinuousClock.now < deadline, "/health stayed \(answer.status): \(result.output)")
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
