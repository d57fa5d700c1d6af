import StateSyncClient

/// How the `stores` commands run: a ``StoreAdminClient`` for the first URL
/// of the connection options, its failures turned into the one-line
/// ``CommandFailure`` `main` prints (exit 1).
enum StoreAdmin {
    /// Runs `body` with a client of the server `connection` names.
    static func run<T: Sendable>(
        _ connection: ConnectionOptions, _ body: (StoreAdminClient) async throws(StoreAdminError) -> T
    ) async throws(CommandFailure) -> T {
        let url = connection.resolvedURLs[0]
        let admin: StoreAdminClient
        do {
            admin = try StoreAdminClient(url: url, token: connection.token)
        } catch {
            throw CommandFailure(error)   // validate() has checked the URL already
        }
        do {
            return try await body(admin)
        } catch {
            throw CommandFailure(message: message(for: error))
        }
    }

    /// The line for `error`: the server's own message, with what to do
    /// about a missing or lesser token.
    static func message(for error: StoreAdminError) -> String {
        switch error.status {
        case 401: "\(error): pass an admin token with --token"
        case 403: "\(error): the stores commands need an admin token"
        default: "\(error)"
        }
    }
}
