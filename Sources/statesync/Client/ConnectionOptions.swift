import ArgumentParser
import Foundation
import StateSyncClient
import WebSocket

/// The options every client command shares: where the server is and who is
/// asking. Include them with `@OptionGroup var connection: ConnectionOptions`.
///
/// ```
/// statesync get /todos --url ws://10.0.0.5:8080/sync --token s3cret --name alice
/// STATESYNC_URL=ws://10.0.0.5:8080/sync statesync watch /counters
/// ```
struct ConnectionOptions: ParsableArguments {
    /// Where `statesync serve` listens by default.
    static let defaultURL = StateSyncClientConfiguration().url

    @Option(help: ArgumentHelp(
        "The server's WebSocket URL, ws:// or wss:// (default: $STATESYNC_URL, else \(ConnectionOptions.defaultURL)).",
        valueName: "url"))
    var url: String?

    @Option(help: "The token for a server started with --token or --tokens-file.")
    var token: String?

    @Option(help: "The name others see in presence (default: the server names the session).")
    var name: String?

    /// `--url`, else `STATESYNC_URL`, else ``defaultURL``.
    var resolvedURL: String {
        url ?? ProcessInfo.processInfo.environment["STATESYNC_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultURL
    }

    func validate() throws {
        let url = resolvedURL
        do {
            _ = try WebSocketURL(url)   // the client's own parser: scheme, host, port
        } catch {
            let source = self.url == nil ? "STATESYNC_URL" : "--url"
            throw ValidationError("\(source) \(url) is not a WebSocket URL (expected ws://HOST:PORT/PATH or wss://…): \(error)")
        }
    }

    /// The client configuration these options describe. `waitsForServer`:
    /// whether the client keeps retrying when nothing listens yet (a live
    /// view) instead of failing at once (a one-shot command).
    func configuration(waitsForServer: Bool = false) -> StateSyncClientConfiguration {
        var configuration = StateSyncClientConfiguration(url: resolvedURL)
        configuration.token = token
        configuration.name = name
        configuration.waitsForServer = waitsForServer
        return configuration
    }
}
