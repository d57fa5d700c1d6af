import BoardApp
import StateSyncClient
import StateSyncCore
import WebSocket

/// Helpers shared by the client's end-to-end suites.
enum ClientFixtures {
    /// A configuration for the server at `url` that retries quickly (tests
    /// restart servers and should not wait seconds for the next attempt).
    static func configuration(_ url: String, clientID: String? = nil, name: String? = nil) -> StateSyncClientConfiguration {
        var configuration = StateSyncClientConfiguration(url: url)
        if let clientID { configuration.clientID = clientID }
        configuration.name = name
        configuration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(400))
        configuration.webSocket.pingInterval = nil
        return configuration
    }

    /// An `increment` action of `counter` by `by`.
    static func increment(_ counter: String, by: Int = 1) -> JSONObject {
        ["type": "increment", "counter": .string(counter), "by": .integer(Int64(by))]
    }

    /// Waits until `client`'s mirror has heard of revision `rev`.
    static func waitForRevision(_ rev: UInt64, on client: StateSyncClient) async {
        for await heard in client.observeStatus(\.rev) where heard >= rev { return }
    }

    /// Waits until `client`'s connection state satisfies `condition`.
    static func waitForConnection(on client: StateSyncClient, _ condition: @Sendable (ConnectionState) -> Bool) async {
        for await state in client.observeStatus(\.connection) where condition(state) { return }
    }
}
