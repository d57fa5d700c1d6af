import Foundation
import StateSyncCore
import TestProcessSupport
import Testing

/// `curl` as a user runs it against the HTTP API.
enum Curl {
    /// A finished request: its status, headers (lower-cased names) and body.
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: String

        /// The body as JSON.
        var json: JSONValue {
            get throws { try JSONParser().parse(body) }
        }
    }

    /// Runs `curl -s -i` with `arguments` against `http://127.0.0.1:port/path`.
    static func run(port: Int, _ path: String, _ arguments: [String] = []) async throws -> Response {
        let curl = try #require(Tools.tool("curl"), "curl is not on PATH: run scripts/test, or apt-get install curl")
        let result = try await Subprocess.run([curl.path, "-s", "-i", "--max-time", "20"] + arguments + ["http://127.0.0.1:\(port)\(path)"])
        #expect(result.status == 0, "curl \(arguments) \(path): \(result.errors)")
        return parse(result.output)
    }

    /// `POST path` with `body` (JSON) and extra `headers`.
    static func post(port: Int, _ path: String, _ body: String, headers: [String] = []) async throws -> Response {
        try await run(port: port, path, ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", body]
            + headers.flatMap { ["-H", $0] })
    }

    /// Splits `curl -i` output into status, headers and body.
    static func parse(_ output: String) -> Response {
        let parts = output.components(separatedBy: "\r\n\r\n")
        let head = parts.first?.components(separatedBy: "\r\n") ?? []
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }
}
