import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

extension AbuseTests {
    /// Hardening: tokens need not appear in the process's arguments, and a
    /// tokens file others can read is reported.
    @Suite(.timeLimit(.minutes(1)))
    struct TokenSecretsAbuseTests {
        @Test func tokensFromTheEnvironmentEnableAuthentication() async throws {
            let server = try ServeProcess(
                ["serve", "--memory", "--port", "0"], environment: ["STATESYNC_TOKENS": "s3cret=admin, viewer=reader"])
            let port = try #require(try await server.waitForPort(), "no URL printed: \(server.standardError)")
            let url = "ws://127.0.0.1:\(port)/sync"
            let admin = try await ProtocolClient.joined(url, token: "s3cret")
            #expect(admin.welcome["role"] == "admin")
            let reader = try await ProtocolClient.joined(url, token: "viewer")
            #expect(reader.welcome["role"] == "reader")
            let anonymous = try await ProtocolClient.connect(url)
            try await anonymous.send(#"{"type":"hello"}"#)
            #expect(try await anonymous.receive("error")["code"] == "unauthorized")
            #expect(!(try String(contentsOfFile: "/proc/\(server.processIdentifier)/cmdline", encoding: .utf8)).contains("s3cret"))
            await server.stop()
        }

        @Test(arguments: [(0o644, true), (0o600, false)])
        func aTokensFileOthersCanReadIsReported(mode: Int, warned: Bool) async throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)").path
            try "s3cret admin\n".write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
            let server = try ServeProcess(["serve", "--memory", "--port", "0", "--tokens-file", path])
            _ = try #require(try await server.waitForPort(), "no URL printed: \(server.standardError)")
            await server.stop()
            let warning = "statesync: warning: the tokens file \(path) can be read by other users (mode \(String(mode, radix: 8))); run chmod 600 \(path)"
            #expect(server.standardError.contains(warning) == warned, "\(server.standardError)")
        }
    }
}
