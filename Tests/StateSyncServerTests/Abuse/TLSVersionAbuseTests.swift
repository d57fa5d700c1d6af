import Foundation
import StateSyncTestSupport
import TestProcessSupport
import Testing

extension AbuseTests {
    /// Hardening: `wss://` never negotiates TLS 1.0 or 1.1 (RFC 8996).
    @Suite(.timeLimit(.minutes(1)))
    struct TLSVersionAbuseTests {
        /// What `openssl s_client` reports for a handshake with `versionFlag`.
        private static func handshake(port: Int, _ versionFlag: String) async throws -> String {
            let openssl = try #require(Tools.tool("openssl"), "openssl is not on PATH: run scripts/test")
            // SECLEVEL=0 lets the client itself offer the old versions.
            let result = try await Subprocess.run([
                openssl.path, "s_client", "-connect", "127.0.0.1:\(port)", versionFlag, "-cipher", "DEFAULT:@SECLEVEL=0",
            ])
            return result.output + result.errors
        }

        @Test func tlsBelow1_2IsRefused() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("statesync-tls-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let files = try await TestCertificate.make(in: directory)
            let (server, port) = try await ServeProcess.serving(["--tls-cert", files.certificate, "--tls-key", files.key])
            let old = try await Self.handshake(port: port, "-tls1_1")
            #expect(old.contains("alert protocol version"), "\(old)")
            #expect(old.contains("Cipher is (NONE)"))
            let current = try await Self.handshake(port: port, "-tls1_2")
            #expect(current.contains("Protocol  : TLSv1.2"), "\(current)")
            await server.stop()
        }
    }
}
