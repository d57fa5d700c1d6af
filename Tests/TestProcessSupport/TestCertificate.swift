import Foundation
import Testing

/// A self-signed certificate for `localhost` and 127.0.0.1, made with openssl
/// for the TLS tests.
package struct TestCertificate: Sendable {
    /// The PEM certificate's path.
    package let certificate: String
    /// The PEM private key's path.
    package let key: String

    /// Makes a certificate and key (P-256, valid for a day) in `directory`.
    package static func make(in directory: String) async throws -> TestCertificate {
        let openssl = try #require(Tools.onPath("openssl"), "openssl is needed to make a test certificate")
        let certificate = TestCertificate(certificate: directory + "/cert.pem", key: directory + "/key.pem")
        // Subprocess, not ServeProcess: openssl exits within milliseconds.
        let made = try await Subprocess.run([
            openssl.path, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", certificate.key, "-out", certificate.certificate, "-days", "1", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ])
        #expect(made.status == 0, "openssl: \(made.errors)")
        return certificate
    }
}
