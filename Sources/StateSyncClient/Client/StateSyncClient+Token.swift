import StateSyncCore
import StateSyncProtocol

extension StateSyncClient {
    /// Replaces the session's token in place (`auth`), e.g. a JWT about to expire; subscriptions and requests stay,
    /// and later reconnects use it. Offline, it returns once the next connection is welcomed with it.
    ///
    /// - Throws: `unauthorized` (``StateSyncClientError/server(code:message:path:)``) when the server refuses the
    ///   token, the one in use then staying in force; ``StateSyncClientError/closed``.
    public func refreshToken(_ token: String) async throws {
        if isClosed { throw failure ?? StateSyncClientError.closed }
        self.token = token
        let id = makeWireID("t")
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            tokenWaiters[id] = continuation
            if let connection { send(.auth(id: id, token: token), on: connection) }
        }
    }

    /// The server put `auth` `id`'s token in force, with `role` in `main`.
    func authorized(_ id: String, role: Role?) {
        guard let waiter = tokenWaiters.removeValue(forKey: id) else { return }
        statusStore.performStateUpdate { $0.role = role }
        waiter.resume()
    }

    /// The server refused `auth` `id`'s token; `false` when `id` is no `auth`'s.
    func tokenRefused(_ id: String, code: ErrorCode, message: String) -> Bool {
        guard let waiter = tokenWaiters.removeValue(forKey: id) else { return false }
        waiter.resume(throwing: StateSyncClientError.server(code: code, message: message, path: nil))
        return true
    }

    /// A connection was welcomed: its `hello` carried the newest token, so
    /// refreshes that were not answered on the previous connection are done.
    func tokenInForce() {
        let waiters = tokenWaiters
        tokenWaiters = [:]
        for waiter in waiters.values { waiter.resume() }
    }

    /// The client ended: refreshes still waiting fail with `error`.
    func failTokenWaiters(with error: any Error) {
        let waiters = tokenWaiters
        tokenWaiters = [:]
        for waiter in waiters.values { waiter.resume(throwing: error) }
    }
}
