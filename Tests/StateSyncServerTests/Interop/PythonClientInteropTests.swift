import TestProcessSupport
import Foundation
import StateSyncTestSupport
import Testing

/// A real client written elsewhere (Python `websockets`, installed by
/// scripts/test) runs a protocol scenario against the server.
@Suite(.timeLimit(.minutes(1)))
struct PythonClientInteropTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("protocol_scenario.py").path

    @Test func pythonWebsocketsClientRunsTheProtocolScenario() async throws {
        let python = try #require(Tools.tool("python3"), "python3 is needed (scripts/test makes .venv with websockets for it)")
        let probe = try ServeProcess(["-c", "import websockets"], executable: python)
        let probeStatus = await probe.waitForExit()
        try #require(
            probeStatus == 0,
            "\(python.path) cannot import the Python module websockets: run scripts/test, which installs it into .venv")
        try await TestServer.with { server in
            let client = try ServeProcess([Self.script, server.url], executable: python)
            let status = await client.waitForExit()
            #expect(status == 0, "stdout: \(client.standardOutput) stderr: \(client.standardError)")
            #expect(client.standardOutput.contains("ok"))
        }
    }
}
