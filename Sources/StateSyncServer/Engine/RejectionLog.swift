public import Foundation
import DequeModule
public import StateSyncCore

/// A dispatch the engine rejected, as devtools show it. The journal holds
/// only accepted actions, so rejections live in memory, in a bounded window
/// (``SyncEngineConfiguration/rejectionLogCapacity``), and are lost at restart.
public struct RejectedAction: Sendable, Hashable {
    /// Numbers rejections in order (1, 2, …) since the engine started.
    public var sequence: UInt64
    /// When the engine decided it (its clock, as `Meta.time`).
    public var time: Date
    /// The revision the state was at when it was rejected (nothing changed).
    public var revision: UInt64
    /// The dispatching session's id.
    public var sessionID: String
    /// Its `clientId`, if any.
    public var clientID: String?
    /// The dispatch's id.
    public var actionID: String
    /// The action object as sent; an action whose JSON is longer than
    /// ``RejectionLog/maxActionBytes`` keeps only its `type` and its size.
    public var action: JSONValue
    /// The `reject` code.
    public var code: String
    /// The `reject` message.
    public var message: String
}

/// The most recent rejections, oldest first; appended by the sequencer,
/// read by devtools from any thread (``EngineShared`` guards it with a mutex).
struct RejectionLog: Sendable {
    /// Actions larger than this (serialized) are kept as `{"type":…,"bytes":N}`:
    /// devtools need the gist, and a window of large messages must not hold
    /// megabytes each.
    static let maxActionBytes = 4_096

    private let capacity: Int
    private var entries: Deque<RejectedAction> = []
    private var lastSequence: UInt64 = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// Records a rejection.
    mutating func record(_ rejection: DecidedRejection) {
        guard capacity > 0 else { return }
        lastSequence += 1
        let bytes = JSONSerializer().serialize(.object(rejection.action))
        let kept: JSONValue = bytes.count <= Self.maxActionBytes
            ? .object(rejection.action) : ["type": rejection.action["type"] ?? .null, "bytes": .integer(Int64(bytes.count))]
        entries.append(RejectedAction(
            sequence: lastSequence, time: rejection.time, revision: rejection.revision, sessionID: rejection.sessionID,
            clientID: rejection.clientID, actionID: rejection.actionID, action: kept, code: rejection.code,
            message: rejection.message))
        if entries.count > capacity { entries.removeFirst() }
    }

    /// The kept rejections with a sequence number above `sequence`, oldest first.
    func entries(after sequence: UInt64) -> [RejectedAction] {
        entries.filter { $0.sequence > sequence }
    }
}

/// A rejection the sequencer decided, kept with its batch and recorded in
/// the ``RejectionLog`` when the batch is published: a batch that a shared
/// journal refuses is sequenced again, and its rejections must be logged
/// once, as decided the second time.
struct DecidedRejection {
    /// When the engine decided it.
    var time: Date
    /// The revision the state was at.
    var revision: UInt64
    /// The dispatching session's id.
    var sessionID: String
    /// Its `clientId`, if any.
    var clientID: String?
    /// The dispatch's id.
    var actionID: String
    /// The action object as sent.
    var action: JSONObject
    /// The `reject` code.
    var code: String
    /// The `reject` message.
    var message: String
}
