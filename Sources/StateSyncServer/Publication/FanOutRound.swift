import StateSyncCore
import StateSyncProtocol

/// The unsent patches of one published change: the subscription nodes it may
/// touch, where sending stopped, and the answers after the last patch. A shard
/// sends it a slice at a time (``Publication/continuePublishing(limit:)``).
struct FanOutRound {
    /// The published state before the change.
    let old: JSONValue
    /// The published state after it.
    let new: JSONValue
    /// The revision the patches bring their subscriptions to.
    let revision: UInt64
    /// The nodes whose subscriptions may see the change, in sending order.
    let nodes: [SubscriptionNode]
    /// Answers sent once every patch is.
    let answers: [DispatchAnswer]
    /// The node being sent to.
    var nodeIndex = 0
    /// The frames of ``nodeIndex``'s patch and the subscriber it stopped at;
    /// `nil` before its diff is made.
    var inNode: NodeProgress?
    /// Patch frames sent so far.
    var patches = 0
    /// Bytes of those frames.
    var bytesSent = 0
    /// Bytes of the shared parts built.
    var bytesBuilt = 0
}

/// How far a round got in one node's subscribers.
struct NodeProgress {
    /// The node's patch, serialized once.
    let frames: PatchFrames
    /// The subscriber to send to next.
    var position: [SubscriberKey: UInt64].Index
    /// Frames already made, by the only parts that differ between them.
    private var made: [FrameKey: [UInt8]] = [:]

    /// How far a round got: `frames` built, `position` next.
    init(frames: PatchFrames, position: [SubscriberKey: UInt64].Index) {
        self.frames = frames
        self.position = position
    }

    /// The frame for subscription `id` at `base`, made once for every
    /// subscription with the same id and base.
    mutating func frame(id: String, base: UInt64) -> [UInt8] {
        let key = FrameKey(id: id, base: base)
        if let existing = made[key] { return existing }
        let bytes = frames.frame(id: id, base: base)
        made[key] = bytes
        return bytes
    }
}

/// The bytes of a patch frame depend only on the subscription id and base
/// (the path's ops and rev are shared).
private struct FrameKey: Hashable {
    var id: String
    var base: UInt64
}
