import StateSyncClient
import StateSyncProtocol

/// The top line: server, store (unless `main`), whether the mirror is live, and revision,
/// as in `StateSync mirror · ws://127.0.0.1:8080/sync · online · rev 12`.
struct StatusBar: Sendable, Hashable {
    /// The server's URL.
    var url: String
    /// The store mirrored.
    var store: StoreName = .main
    /// The client's connection state.
    var connection: ConnectionState = .connecting
    /// The newest revision the client has heard of.
    var rev: UInt64 = 0

    /// The words for ``connection``.
    var connectionText: String {
        switch connection {
        case .connecting: "connecting…"
        case .online: "online"
        case .offline(let reason): "offline, retrying (\(reason))"
        case .closed: "closed"
        }
    }

    /// The bar's text.
    var text: String {
        let place = store.isMain ? url : "\(url) · store \(store)"
        return "StateSync mirror · \(place) · \(connectionText)" + (rev > 0 ? " · rev \(rev)" : "")
    }

    /// The plain-output line for a connection change: `status: online`.
    var summary: String {
        "status: \(connectionText)"
    }

    /// The colour of the bar: green online, yellow connecting, red otherwise.
    var color: String {
        switch connection {
        case .online: ANSI.green
        case .connecting: ANSI.yellow
        case .offline, .closed: ANSI.red
        }
    }
}
