import NIOCore

/// Pongs written but not yet on the socket, and the one held back beyond ``limit``. RFC 6455 §5.5.3 lets an
/// endpoint answer only the most recent ping, so a peer that pings and never reads cannot make the connection
/// queue a pong per ping: each new one replaces the held one, written once an earlier pong is sent.
struct PongBacklog {
    /// Unsent pongs beyond which only the latest is kept.
    let limit: UInt32
    /// Pongs written and not yet sent. (Counts of 32 bits and the held-back
    /// pong out of line: every connection's handler holds a backlog.)
    private(set) var unsent: UInt32 = 0
    private var heldBackPong: OutOfLine<ByteBuffer>?
    /// The pong held back, if any.
    var heldBack: ByteBuffer? { heldBackPong?.value }

    /// A backlog that writes up to `limit` pongs before holding one back.
    init(limit: UInt32 = 16) {
        self.limit = limit
    }

    /// The pong `pong` (an encoded frame) to write now, or `nil` when it is
    /// held back in place of an older one.
    mutating func answer(_ pong: ByteBuffer) -> ByteBuffer? {
        guard unsent < limit else {
            heldBackPong = OutOfLine(pong)
            return nil
        }
        unsent += 1
        return pong
    }

    /// A pong reached the socket (or the connection ended): the held-back
    /// pong to write now, if any.
    mutating func sent() -> ByteBuffer? {
        unsent -= 1
        guard let pong = heldBack else { return nil }
        heldBackPong = nil
        unsent += 1
        return pong
    }
}
