import StateSyncClient
import StateSyncCore

/// One `StateSyncClient` and the task running its connection, subscribed to
/// one path; ``restart()`` replaces it by a new one with the same
/// `clientId` (a disconnect and a fresh session).
actor MirrorLife {
    nonisolated let url: String
    nonisolated let clientID: String
    nonisolated let path: String
    private(set) var client: StateSyncClient
    private var runner: Task<Void, Never>?

    init(url: String, clientID: String, path: String) {
        self.url = url
        self.clientID = clientID
        self.path = path
        client = StateSyncClient(configuration: Self.configuration(url: url, clientID: clientID))
    }

    /// Runs the client and subscribes its path (the subscription waits while
    /// the server is down; the client keeps retrying).
    func start() async {
        let client = self.client
        let path = self.path
        runner = Task {
            // Ends when the client is closed; errors before that are retried inside.
            try? await client.run()
        }
        try? await client.subscribe(path)   // fails only once the client is closed
    }

    /// Closes the client and waits for its task.
    func close() async {
        await client.close()
        await runner?.value
        runner = nil
    }

    /// A disconnect: closes this client and starts a new one with the same `clientId`.
    func restart() async {
        await close()
        client = StateSyncClient(configuration: Self.configuration(url: url, clientID: clientID))
        await start()
    }

    /// The mirrored value at the path, and whether the client is online.
    func mirrored() async -> (online: Bool, value: JSONValue?) {
        guard case .online = client.status.connection else { return (false, nil) }
        return (true, try? await client.value(at: path))
    }

    private static func configuration(url: String, clientID: String) -> StateSyncClientConfiguration {
        var configuration = StateSyncClientConfiguration(url: url)
        configuration.clientID = clientID
        configuration.name = clientID
        configuration.waitsForServer = true
        return configuration
    }
}
