import StateSyncCore
import StateSyncJournal

/// What `GET /health` reports, as JSON (keys sorted):
/// `{"connections":3,"epoch":"e-3b9c…","rev":1042,"status":"ok"}`.
///
/// `status` is `ok`, `storage_failing`, `failed` or `stopping`; anything but
/// `ok` is answered 503 so load balancers stop sending clients. In a cluster,
/// `writer` names the holder of `main`'s lease: `this`, an id, or `unknown`.
public struct HealthStatus: Sendable, Hashable {
    /// `ok`, `storage_failing`, `failed` or `stopping`.
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
    /// Which node writes `main` in a cluster (`this`, a node id, or
    /// `unknown`); `nil` (and no `writer` key) outside a cluster.
    public var writer: String?

    /// A status.
    public init(status: String, epoch: String, rev: UInt64, connections: Int, reason: String? = nil) {
        self.status = status
        self.epoch = epoch
        self.rev = rev
        self.connections = connections
        self.reason = reason
    }

    /// The status from, in that order: stopping, a final journal fault, an engine
    /// stop reason, a retried fault.
    init(stopping: Bool, stopReason: String?, fault: JournalWriteFault?, epoch: String, rev: UInt64, connections: Int) {
        if stopping {
            self.init(status: "stopping", epoch: epoch, rev: rev, connections: connections)
        } else if let fault, fault.isFinal {
            self.init(status: "failed", epoch: epoch, rev: rev, connections: connections,
                      reason: "journal writes failed for good (\(fault.reason)); its actions are refused until the server restarts")
        } else if let stopReason {
            self.init(status: "failed", epoch: epoch, rev: rev, connections: connections, reason: stopReason)
        } else if let fault {
            self.init(status: "storage_failing", epoch: epoch, rev: rev, connections: connections,
                      reason: "journal writes are failing (\(fault.reason)), \(fault.failures) attempts so far; retrying")
        } else {
            self.init(status: "ok", epoch: epoch, rev: rev, connections: connections)
        }
    }

    /// The JSON body.
    public var json: String {
        var object: JSONObject = [
            "status": .string(status), "epoch": .string(epoch), "rev": .integer(Int64(clamping: rev)),
            "connections": .integer(Int64(connections)),
        ]
        if let reason { object["reason"] = .string(reason) }
        if let writer { object["writer"] = .string(writer) }
        return JSONSerializer().string(for: .object(object))
    }
}
