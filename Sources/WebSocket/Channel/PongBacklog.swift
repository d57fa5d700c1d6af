import NIOCore

/// How many pongs a connection has written that have not reached the socket
/// yet, and the one it holds back beyond them.
///
/// A peer that sends pings and never reads would otherwise make the
/// connection queue a pong per ping: two bytes of payload each, but a
/// buffer and a pending write of well over a hundred bytes, so millions of
/// them before the outbound cap (which counts payload) is reached. RFC 6455
/// §5.5.3 lets an endpoint that has not yet sent the pongs of earlier pings
/// answer only the most recent one: past ``limit`` unsent pongs, each new
/// one replaces the one held back, which is written when an earlier one has
/// been sent. A peer that reads keeps every pong it asked for; on the
/// server, reading waits while a pong is held back, so the flood stalls its
/// sender (``ReadFlowStateMachine/pongsBackedUp()``).
///
/// ```swift
/// var backlog = PongBacklog(limit: 2)
/// backlog.answer(a)   // a: write it
/// backlog.answer(b)   // b: write it
/// backlog.answer(c)   // nil: held back
/// backlog.answer(d)   // nil: d replaces c
/// backlog.sent()      // d: write it now
/// ```
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
