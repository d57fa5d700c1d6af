import StateSyncCore

/// What `GET /health` reports, as JSON (keys sorted):
/// `{"connections":3,"epoch":"e-3b9c…","rev":1042,"status":"ok"}`.
///
/// `status` is `ok` while serving, `storage_failing` while the journal's
/// writes fail and are retried (the disk is full or failing: new actions
/// are refused with `unavailable`; `reason` says what fails), and `stopping`
/// once shutdown began. Anything but `ok` is answered with 503, so that load
/// balancers stop sending new clients.
public struct HealthStatus: Sendable, Hashable {
    /// `ok`, `storage_failing` or `stopping`.
    public var status: String
    /// The history's epoch.
    public var epoch: String
    /// The current revision.
    public var rev: UInt64
    /// Open WebSocket connections.
    public var connections: Int
    /// Why the status is not `ok`, without server paths; `nil` (and no
    /// `reason` key) when there is nothing to add.
    public var reason: String?

    /// A status.
    public init(status: String, epoch: String, rev: UInt64, connections: Int, reason: String? = nil) {
        self.status = status
        self.epoch = epoch
        self.rev = rev
        self.connections = connections
        self.reason = reason
    }

    /// The JSON body.
    public var json: String {
        var object: JSONObject = [
            "status": .string(status), "epoch": .string(epoch), "rev": .integer(Int64(clamping: rev)),
            "connections": .integer(Int64(connections)),
        ]
        if let reason { object["reason"] = .string(reason) }
        return JSONSerializer().string(for: .object(object))
    }
}
