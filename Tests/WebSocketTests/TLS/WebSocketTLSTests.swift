import TestProcessSupport
import Foundation
import NIOSSL
import Testing
import WebSocket

/// `wss://` end to end with a self-signed certificate made by `openssl`.
@Suite(.timeLimit(.minutes(1))) struct WebSocketTLSTests {
    static func makeCertificate() async throws -> (certificate: String, key: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wss-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let files = try await TestCertificate.make(in: directory.path)
        return (files.certificate, files.key)
    }

    @Test func echoOverTLS() async throws {
        let (certificate, key) = try await Self.makeCertificate()
        let tls = try WebSocketTLS.serverConfiguration(certificatePath: certificate, privateKeyPath: key)
        try await withTestServer(configuration: .init(tls: tls), routes: [echoRoute()]) { _, port in
            let client = try WebSocketTLS.clientConfiguration(trustedCertificatePath: certificate)
            let connection = try await WebSocketClient.connect(url: "wss://localhost:\(port)/echo", tlsConfiguration: client)
            try await connection.outbound.send(text: "secret")
            var iterator = connection.inbound.makeAsyncIterator()
            #expect(await iterator.next() == .text("secret"))
            try await connection.outbound.close()
        }
    }

    @Test func untrustedCertificateFailsTheConnection() async throws {
        let (certificate, key) = try await Self.makeCertificate()
        let tls = try WebSocketTLS.serverConfiguration(certificatePath: certificate, privateKeyPath: key)
        try await withTestServer(configuration: .init(tls: tls), routes: [echoRoute()]) { _, port in
            do {
                _ = try await WebSocketClient.connect(url: "wss://localhost:\(port)/echo")
                Issue.record("connected to an untrusted server")
            } catch let error as WebSocketClientError {
                #expect(error.description.hasPrefix("TLS or connection failure"))
                #expect(error.description.contains("to localhost:\(port)"))
            }
        }
    }

    @Test func missingCertificateFileIsReported() {
        #expect(throws: (any Error).self) {
            _ = try WebSocketTLS.serverConfiguration(certificatePath: "/nonexistent/cert.pem", privateKeyPath: "/nonexistent/key.pem")
        }
    }
}
