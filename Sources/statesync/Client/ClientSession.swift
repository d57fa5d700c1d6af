import StateSyncClient
import StateSyncCore
import UnixSignals

/// How the client commands run: connected for the length of a body, with
/// every client error turned into the one-line failure `main` prints.
enum ClientSession {
    /// Connects with `configuration`, runs `body`, closes. A failure to
    /// connect, a rejection or a server error becomes a ``CommandFailure``
    /// (`cannot connect to ws://127.0.0.1:8080/sync: connection refused`).
    static func run<T: Sendable>(
        _ configuration: StateSyncClientConfiguration, _ body: @escaping @Sendable (StateSyncClient) async throws -> T
    ) async throws(CommandFailure) -> T {
        do {
            return try await StateSyncClient.withConnection(configuration, body)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Runs `body` until it returns or SIGINT or SIGTERM arrives (a normal end); when the
    /// server refuses the client for good, `withConnection` cancels the body and reports why.
    static func untilStopped(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask(operation: body)
            group.addTask {
                for await _ in signals { return }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
