import Foundation
import StateSyncTestSupport
import TestProcessSupport
import Testing

extension AbuseTests {
    /// Hardening: `/metrics` can be kept for admins (`--metrics-admin-only`).
    @Suite(.timeLimit(.minutes(1)))
    struct MetricsAuthAbuseTests {
        @Test func metricsAnswerAdminsOnlyWhenAsked() async throws {
            let (server, port) = try await ServeProcess.serving(["--token", "root=admin", "--token", "viewer=reader", "--metrics-admin-only"])
            let anonymous = try await Curl.run(port: port, "/metrics")
            #expect(anonymous.status == 401)
            #expect(anonymous.headers["www-authenticate"] == "Bearer")
            #expect(try await Curl.run(port: port, "/metrics", ["-H", "Authorization: Bearer viewer"]).status == 403)
            let admin = try await Curl.run(port: port, "/metrics", ["-H", "Authorization: Bearer root"])
            #expect(admin.status == 200)
            #expect(admin.body.contains("statesync_connections"))
            await server.stop()

            let (open, openPort) = try await ServeProcess.serving(["--token", "root=admin"])
            #expect(try await Curl.run(port: openPort, "/metrics").status == 200)
            await open.stop()

            let refused = try await CLI.run(["serve", "--memory", "--metrics-admin-only"])
            #expect(refused.status == 1)
            #expect(refused.errors.contains("--metrics-admin-only needs an admin token"))
        }
    }
}
