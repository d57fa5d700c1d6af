public import Foundation
import DequeModule
public import StateSyncCore

/// A dispatch the engine rejected, as devtools show it. The journal holds
/// only accepted actions, so rejections live in memory, in a bounded window
/// (``SyncEngineConfiguration/rejectionLogCapacity``), and are lost at restart.
public struct RejectedAction: Sendable, Hashable {
    /// Numbers rejections in order (1, 2, …) since the engine started
    /// (given when the log records it).
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

    /// Records a rejection, numbering it after the last one.
    mutating func record(_ rejection: RejectedAction) {
        guard capacity > 0 else { return }
        lastSequence += 1
        var numbered = rejection
        numbered.sequence = lastSequence
        entries.append(numbered)
        if entries.count > capacity { entries.removeFirst() }
    }

    /// `action` as the log keeps it (see ``maxActionBytes``).
    static func kept(_ action: JSONObject) -> JSONValue {
        let bytes = JSONSerializer().serialize(.object(action))
        return bytes.count <= maxActionBytes ? .object(action) : ["type": action["type"] ?? .null, "bytes": .integer(Int64(bytes.count))]
    }

    /// The kept rejections with a sequence number above `sequence`, oldest first.
    func entries(after sequence: UInt64) -> [RejectedAction] {
        entries.filter { $0.sequence > sequence }
    }
}

