public import NIOSSL

/// Helpers that turn PEM files into swift-nio-ssl configurations for `wss://`.
///
/// ```swift
/// let tls = try WebSocketTLS.serverConfiguration(certificatePath: "cert.pem", privateKeyPath: "key.pem")
/// let server = WebSocketServer(configuration: .init(port: 8443, tls: tls), routes: routes)
/// ```
public enum WebSocketTLS {
    /// A server configuration from a PEM certificate chain (leaf first) and a
    /// PEM private key. Throws swift-nio-ssl's error naming the unreadable file.
    public static func serverConfiguration(certificatePath: String, privateKeyPath: String) throws -> TLSConfiguration {
        let chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
        let key = try NIOSSLPrivateKey(file: privateKeyPath, format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) },
            privateKey: .privateKey(key))
        // TLS 1.0 and 1.1 are deprecated (RFC 8996): never negotiate them.
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }

    /// A client configuration that trusts the system roots plus, when given,
    /// the PEM certificates in `trustedCertificatePath` (a self-signed server
    /// certificate in tests, a private CA in deployments).
    public static func clientConfiguration(trustedCertificatePath: String? = nil) throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        if let trustedCertificatePath {
            let certificates = try NIOSSLCertificate.fromPEMFile(trustedCertificatePath)
            configuration.trustRoots = .certificates(certificates)
        }
        return configuration
    }
}
