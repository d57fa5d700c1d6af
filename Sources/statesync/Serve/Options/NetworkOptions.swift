import ArgumentParser

/// `serve`'s options of the `network:` section: where it listens and whom it answers.
struct NetworkOptions: SettingOptions {
    private typealias Keys = ServeConfiguration.Network.Keys

    @Option(help: ArgumentHelp("The address to listen on (0.0.0.0 for every interface).", default: ServeConfiguration.defaults.network.host))
    var host: String?

    @Option(help: ArgumentHelp("The TCP port (0 lets the OS choose; the URL printed says which).", default: ServeConfiguration.defaults.network.port))
    var port: Int?

    @Option(help: "A PEM certificate chain: serve wss:// (with --tls-key).")
    var tlsCert: String?

    @Option(help: "The PEM private key of --tls-cert.")
    var tlsKey: String?

    @Flag(help: "Also serve /echo (a WebSocket echo for conformance tests).")
    var echo = false

    @Option(help: "A browser origin (scheme://host[:port]) allowed besides the server's own; * allows every origin. Repeatable.")
    var allowOrigin: [String] = []

    @Option(help: "A Host name answered besides localhost, 127.0.0.1 and ::1 when bound to loopback. Repeatable.")
    var allowHost: [String] = []

    @Option(help: ArgumentHelp("Event-loop threads: each serves its share of the connections and sends their patches.", default: "one per core"))
    var threads: Int?

    @Option(help: ArgumentHelp(
        "Development only: delay everything sent on each /sync connection by this many milliseconds, to see a far-away server (0: off).",
        default: ServeConfiguration.defaults.network.injectLatency))
    var injectLatency: Int?

    func add(to flags: inout FlagValues) {
        flags.set(Keys.host, host)
        flags.set(Keys.port, port)
        flags.set(Keys.tlsCert, tlsCert)
        flags.set(Keys.tlsKey, tlsKey)
        flags.set(Keys.echo, given: echo)
        flags.set(Keys.allowOrigins, allowOrigin)
        flags.set(Keys.allowHosts, allowHost)
        flags.set(Keys.threads, threads)
        flags.set(Keys.injectLatency, injectLatency)
    }
}
