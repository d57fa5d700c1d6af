import StateSyncCore

/// What `GET /health` reports, as JSON (keys sorted):
/// `{"connections":3,"epoch":"e-3b9c…","rev":1042,"status":"ok"}`.
///
/// `status` is `ok` while serving and `stopping` once shutdown began (load
/// balancers then stop sending new clients).
public struct HealthStatus: Sendable, Hashable {
    /// `ok` or `stopping`.
    public var status: String
    /// The history's epoch.
    public var epoch: String
    /// The current revision.
    public var rev: UInt64
    /// Open WebSocket connections.
    public var connections: Int

    /// A status.
    public init(status: String, epoch: String, rev: UInt64, connections: Int) {
        self.status = status
        self.epoch = epoch
        self.rev = rev
        self.connections = connections
    }

    /// The JSON body.
    public var json: String {
        let object: JSONObject = [
            "status": .string(status), "epoch": .string(epoch), "rev": .integer(Int64(clamping: rev)),
            "connections": .integer(Int64(connections)),
        ]
        return JSONSerializer().string(for: .object(object))
    }
}
