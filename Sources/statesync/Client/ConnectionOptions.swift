import ArgumentParser
import Foundation
import StateSyncClient
import WebSocket

/// The options every client command shares: where the server is and who is asking.
/// Include them with `@OptionGroup var connection: ConnectionOptions` (docs/cli.md).
struct ConnectionOptions: ParsableArguments {
    /// Where `statesync serve` listens by default.
    static let defaultURL = StateSyncClientConfiguration().url

    @Option(help: ArgumentHelp(
        "The server's WebSocket URL, ws:// or wss:// (default: $STATESYNC_URL, else \(ConnectionOptions.defaultURL)). Repeat it or separate URLs with commas for the nodes of a cluster: a drop fails over to the next (bench spreads its clients over them).",
        valueName: "url"))
    var url: [String] = []

    @Option(help: "The token for a server started with --token or --tokens-file.")
    var token: String?

    @Option(help: "The name others see in presence (default: the server names the session).")
    var name: String?

    /// The URLs of `--url` (each may list several, separated by commas),
    /// else of `STATESYNC_URL` (the same form), else ``defaultURL``.
    var resolvedURLs: [String] {
        let given = url.isEmpty ? [ProcessInfo.processInfo.environment["STATESYNC_URL"] ?? ""] : url
        let urls = given.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return urls.isEmpty ? [Self.defaultURL] : urls
    }

    func validate() throws {
        for url in resolvedURLs {
            do {
                _ = try WebSocketURL(url)   // the client's own parser: scheme, host, port
            } catch {
                let source = self.url.isEmpty ? "STATESYNC_URL" : "--url"
                throw ValidationError("\(source) \(url) is not a WebSocket URL (expected ws://HOST:PORT/PATH or wss://…): \(error)")
            }
        }
    }

    /// The client configuration these options describe. `waitsForServer`:
    /// whether the client keeps retrying when nothing listens yet (a live
    /// view) instead of failing at once (a one-shot command).
    func configuration(waitsForServer: Bool = false) -> StateSyncClientConfiguration {
        var configuration = StateSyncClientConfiguration(urls: resolvedURLs)
        configuration.token = token
        configuration.name = name
        configuration.waitsForServer = waitsForServer
        return configuration
    }
}
