import WebSocket

extension OpenFileLimit {
    /// Descriptors the server keeps for itself beyond its connections:
    /// journals, the listener, event loops, PostgreSQL connections.
    static let serverReserve = 256

    /// A warning when `maxConnections` connections would not fit under
    /// `limit` with the server's ``serverReserve``, else `nil`.
    static func shortfall(maxConnections: Int, limit: Int) -> String? {
        let needed = maxConnections + serverReserve
        guard needed > limit else { return nil }
        return "max connections is \(maxConnections), but this process may open \(limit) files (ulimit -n): beyond about "
            + "\(max(0, limit - serverReserve)) connections, accepting pauses and clients wait; raise the limit to \(needed) "
            + "(ulimit -n \(needed)) or lower --max-connections"
    }
}
