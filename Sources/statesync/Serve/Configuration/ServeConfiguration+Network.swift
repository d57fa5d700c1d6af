import NIOCore
import StateSyncServer
import WebSocket

extension ServeConfiguration {
    /// Where `serve` listens and whom it answers (the file's `network:` section).
    struct Network: Sendable, Equatable {
        /// The address to listen on. Default `127.0.0.1`: nothing is exposed
        /// to the network unless asked for (`0.0.0.0` for every interface).
        var host = ServeConfiguration.serverDefaults.host
        /// The TCP port. Default 8080; 0 lets the OS choose (the URL printed says which).
        var port = ServeConfiguration.serverDefaults.port
        /// A PEM certificate chain: serve `wss://`. Default none (`ws://`).
        var tlsCert: String?
        /// The PEM private key of ``tlsCert``: a path (the key itself is never
        /// part of the configuration). Default none.
        var tlsKey: String?
        /// Whether `/echo` (a WebSocket echo for conformance tests) is served. Default `false`.
        var echo = ServeConfiguration.serverDefaults.echo
        /// Browser origins allowed besides the server's own; `*` allows every
        /// one. Default none: a page of another site cannot act for its visitors.
        var allowOrigins = RequestPolicy().allowedOrigins
        /// `Host` names answered besides loopback's when bound to loopback. Default none.
        var allowHosts = RequestPolicy().allowedHosts
        /// Event-loop threads, each serving its share of the connections.
        /// Default one per core, so that every core sends.
        var threads = ServeConfiguration.serverDefaults.threads
        /// Development only: milliseconds by which everything sent on each
        /// `/sync` connection is delayed. Default 0 (off).
        var injectLatency = 0

        /// The settings of this section.
        enum Keys {
            static let host = Setting<String>("network.host", flag: "--host")
            static let port = Setting<Int>("network.port", flag: "--port")
            static let tlsCert = Setting<String>("network.tlsCert", flag: "--tls-cert")
            static let tlsKey = Setting<String>("network.tlsKey", flag: "--tls-key")
            static let echo = Setting<Bool>("network.echo", flag: "--echo")
            static let allowOrigins = Setting<[String]>("network.allowOrigins", flag: "--allow-origin")
            static let allowHosts = Setting<[String]>("network.allowHosts", flag: "--allow-host")
            static let threads = Setting<Int>("network.threads", flag: "--threads")
            static let injectLatency = Setting<Int>("network.injectLatency", flag: "--inject-latency")
        }

        /// The defaults.
        init() {}

        /// The section as `settings` give it, each value checked.
        init(reading settings: inout SettingsReader) throws(ConfigurationError) {
            try settings.read(Keys.host, into: &host)
            try settings.read(Keys.port, into: &port, .between(0...65_535, "(a TCP port)"))
            try settings.read(Keys.tlsCert, into: &tlsCert)
            try settings.read(Keys.tlsKey, into: &tlsKey)
            try settings.read(Keys.echo, into: &echo)
            try settings.read(Keys.allowOrigins, into: &allowOrigins)
            try settings.read(Keys.allowHosts, into: &allowHosts)
            try settings.read(Keys.threads, into: &threads, .atLeast(1))
            try settings.read(Keys.injectLatency, into: &injectLatency, .between(0...60_000, "milliseconds"))
            guard (tlsCert == nil) == (tlsKey == nil) else {
                let cert = settings.given(Keys.tlsCert, value: tlsCert ?? "").origin
                let key = settings.given(Keys.tlsKey, value: tlsKey ?? "").origin
                throw tlsCert == nil ? .goTogether(key, cert) : .goTogether(cert, key)   // the one given first
            }
        }

        /// Each setting and its value, in the file's order.
        var entries: [ConfigurationEntry] {
            [
                ConfigurationEntry(Keys.host, host), ConfigurationEntry(Keys.port, port),
                ConfigurationEntry(Keys.tlsCert, tlsCert), ConfigurationEntry(Keys.tlsKey, tlsKey),
                ConfigurationEntry(Keys.echo, echo), ConfigurationEntry(Keys.allowOrigins, allowOrigins),
                ConfigurationEntry(Keys.allowHosts, allowHosts), ConfigurationEntry(Keys.threads, threads),
                ConfigurationEntry(Keys.injectLatency, injectLatency),
            ]
        }

        /// Sets the server's address, TLS (loading the files), policy and threads.
        func apply(to configuration: inout StateSyncServerConfiguration) throws(CommandFailure) {
            configuration.host = host
            configuration.port = port
            configuration.echo = echo
            configuration.requestPolicy = RequestPolicy(allowedOrigins: allowOrigins, allowedHosts: allowHosts)
            configuration.threads = threads
            configuration.injectedLatency = injectLatency > 0 ? .milliseconds(injectLatency) : nil
            if let tlsCert, let tlsKey {
                do {
                    configuration.tls = try WebSocketTLS.serverConfiguration(certificatePath: tlsCert, privateKeyPath: tlsKey)
                } catch {
                    throw CommandFailure(message: "cannot load TLS certificate \(tlsCert) and key \(tlsKey): \(error)")
                }
            }
        }
    }
}
