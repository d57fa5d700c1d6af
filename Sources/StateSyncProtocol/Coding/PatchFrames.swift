public import StateSyncCore

/// One change's `patch` frames for many subscriptions: the shared tail (`rev`
/// and the serialized ops) is built once by ``init(rev:ops:)``, and each
/// ``write(id:base:into:)`` adds a subscription's `id` and `base`, giving the
/// bytes ``MessageEncoder`` writes for
/// ``ServerMessage/patch(id:base:rev:ops:)``.
///
/// ```swift
/// let frames = PatchFrames(rev: 1045, ops: patch)
/// for subscription in subscribers {
///     send(frames.frame(id: subscription.id, base: subscription.lastRev))
/// }
/// ```
public struct PatchFrames: Sendable {
    /// The revision the frames bring their subscriptions to.
    public let rev: UInt64
    /// `,"rev":<rev>,"ops":<ops>}`: everything after `base`.
    private let tail: [UInt8]
    /// `{"type":"patch"<scope>,"id":`: everything before the id, the
    /// store's name included (``writeHeadStart(scope:into:)``).
    private let headStart: [UInt8]

    /// Serializes `ops` once for the frames of revision `rev` of `store`
    /// (named in each frame unless it is ``StoreName/main``).
    public init(rev: UInt64, ops: JSONPatch, store: StoreName = .main) {
        self.rev = rev
        var scope: [UInt8] = []
        if !store.isMain { scope.appendField(#","store":"#, store.rawValue) }
        var headStart: [UInt8] = []
        Self.writeHeadStart(scope: scope, into: &headStart)
        self.headStart = headStart
        var tail: [UInt8] = []
        Self.writeTail(rev: rev, ops: ops, into: &tail)
        self.tail = tail
    }

    /// The size of the shared part, in bytes (what each frame copies).
    public var sharedByteCount: Int { tail.count }

    /// Appends the `patch` frame for subscription `id`, whose previous
    /// revision is `base`, to `bytes`.
    public func write(id: String, base: UInt64, into bytes: inout [UInt8]) {
        bytes.reserveCapacity(bytes.count + headStart.count + id.utf8.count + 32 + tail.count)
        bytes.append(contentsOf: headStart)
        Self.writeHeadEnd(id: id, base: base, into: &bytes)
        bytes.append(contentsOf: tail)
    }

    /// The `patch` frame for subscription `id`, whose previous revision is `base`.
    public func frame(id: String, base: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        write(id: id, base: base, into: &bytes)
        return bytes
    }

    /// `{"type":"patch"<scope>,"id":<id>,"base":<base>`: the per-subscription head.
    static func writeHead(scope: [UInt8], id: String, base: UInt64, into bytes: inout [UInt8]) {
        writeHeadStart(scope: scope, into: &bytes)
        writeHeadEnd(id: id, base: base, into: &bytes)
    }

    /// `{"type":"patch"<scope>,"id":`: the head up to the id, the same in every frame of a store.
    private static func writeHeadStart(scope: [UInt8], into bytes: inout [UInt8]) {
        bytes.appendLiteral(#"{"type":"patch""#)
        bytes.append(contentsOf: scope)
        bytes.appendLiteral(#","id":"#)
    }

    /// `<id>,"base":<base>`: the head from the id on.
    private static func writeHeadEnd(id: String, base: UInt64, into bytes: inout [UInt8]) {
        bytes.appendJSONString(id)
        bytes.appendField(#","base":"#, base)
    }

    /// `,"rev":<rev>,"ops":<ops>}`: the part shared by every subscription.
    static func writeTail(rev: UInt64, ops: JSONPatch, into bytes: inout [UInt8]) {
        bytes.appendField(#","rev":"#, rev)
        bytes.appendField(#","ops":"#, ops.jsonValue)
        bytes.append(UInt8(ascii: "}"))
    }
}
