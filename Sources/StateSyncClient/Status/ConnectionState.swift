/// Where a ``StateSyncClient``'s connection stands.
public enum ConnectionState: Sendable, Hashable, CustomStringConvertible {
    /// Opening the WebSocket and saying hello (first time or after a drop).
    case connecting
    /// Welcomed: subscriptions are live and dispatches are sent at once.
    case online
    /// Not connected; the client will retry after a delay. `reason` says why
    /// the last attempt failed or the connection dropped.
    case offline(reason: String)
    /// ``StateSyncClient/close()`` was called, or the server refused the
    /// client for good (a bad token); nothing will be retried.
    case closed

    /// `connecting`, `online`, `offline (reason)` or `closed`.
    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .online: "online"
        case .offline(let reason): "offline (\(reason))"
        case .closed: "closed"
        }
    }
}
