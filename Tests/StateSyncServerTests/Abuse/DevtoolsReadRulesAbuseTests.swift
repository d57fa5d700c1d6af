import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

extension AbuseTests {
    /// Hardening: the devtools API obeys `--restrict-read`: it shows the whole
    /// state and history, so only a role that may read everything uses it.
    @Suite(.timeLimit(.minutes(1)))
    struct DevtoolsReadRulesAbuseTests {
        @Test func restrictedStateIsNotReadableThroughTheDevtools() async throws {
            let (open, port) = try await ServeProcess.serving(["--restrict-read", "/presence=admin"])
            let client = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", name: "visible-only-to-admins")
            try await client.send(#"{"type":"subscribe","id":"p","path":"/presence"}"#)
            #expect(try await client.receive("error")["code"] == "forbidden")
            for path in ["/devtools/api/state", "/devtools/api/journal", "/devtools/api/sessions"] {
                let response = try await Curl.run(port: port, path)
                #expect(response.status == 403, "\(path)")
                #expect(!response.body.contains("visible-only-to-admins"), "\(path)")
            }
            await open.stop()

            let tokens = try ServeProcess([
                "serve", "--memory", "--port", "0", "--token", "root=admin", "--restrict-read", "/presence=admin",
            ])
            let tokensPort = try #require(try await tokens.waitForPort(), "no URL printed: \(tokens.standardError)")
            let admin = try await Curl.run(port: tokensPort, "/devtools/api/state", ["-H", "Authorization: Bearer root"])
            #expect(admin.status == 200)
            await tokens.stop()
        }
    }
}
