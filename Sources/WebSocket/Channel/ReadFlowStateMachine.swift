/// When a connection reads its socket and flushes its writes, with no channel (``WebSocketChannelHandler``
/// feeds it events). A `read()` is held while the receiver is behind or holds reading, or (when configured) the
/// channel is not writable; writes of a read burst are flushed once at its end.
struct ReadFlowStateMachine {
    /// Whether to ask the channel for a read now.
    enum ReadAction: Hashable {
        /// Call `context.read()`.
        case read
        /// No read now; one requested is remembered until a later event
        /// returns ``read``.
        case doNothing
    }

    /// Whether to flush the channel now.
    enum FlushAction: Hashable {
        /// Call `context.flush()`.
        case flush
        /// No flush now (a write is flushed at the end of the read burst).
        case doNothing
    }

    /// What to do with the bytes of a `channelRead`.
    enum ChannelReadAction: Hashable {
        /// Decode them and perform what they ask for.
        case decode
        /// Drop them: the connection is closing.
        case ignore
    }

    /// Why reads are held back, besides a channel that is not writable.
    private struct Holds: OptionSet {
        let rawValue: UInt8
        /// The receiver of messages is behind (``receiverFellBehind()``).
        static let receiverBehind = Holds(rawValue: 1 << 0)
        /// The receiver asked to hold reading (``holdReading()``).
        static let heldByReceiver = Holds(rawValue: 1 << 1)
        /// The peer does not read the pongs of its pings (``pongsBackedUp()``).
        static let pongsBackedUp = Holds(rawValue: 1 << 2)
    }

    /// Where the read burst is.
    private enum Burst {
        /// No read is being handled: a write is flushed at once.
        case idle
        /// A read is being handled; nothing written yet.
        case reading
        /// A read is being handled and writes wait for its end.
        case readingWithUnflushedWrites
    }

    /// Whether reads wait while the channel is not writable: on the server
    /// only. Were both ends to do it, two peers sending much to each other
    /// could each wait for the other to read, for good.
    private let readsOnlyWhenWritable: Bool
    private var holds: Holds = []
    private var readPending = false
    private var burst = Burst.idle
    /// Whether reading stopped for good (the connection closes): bytes
    /// that arrive after are ignored.
    private(set) var isStopped = false

    /// A connection that reads freely; `readsOnlyWhenWritable` makes reads
    /// wait while the channel is not writable (the server side).
    init(readsOnlyWhenWritable: Bool) {
        self.readsOnlyWhenWritable = readsOnlyWhenWritable
    }

    // MARK: Reading

    /// The pipeline asks for a read.
    mutating func read(channelWritable: Bool) -> ReadAction {
        if mayRead(channelWritable: channelWritable) {
            return .read
        }
        readPending = true
        return .doNothing
    }

    /// The receiver cannot take more messages for now (a task consumer is
    /// past the high watermark): reads wait until ``receiverCaughtUp(channelWritable:)``.
    mutating func receiverFellBehind() {
        holds.insert(.receiverBehind)
    }

    /// The receiver takes messages again (a task consumer fell below the
    /// low watermark, or went away).
    mutating func receiverCaughtUp(channelWritable: Bool) -> ReadAction {
        holds.remove(.receiverBehind)
        return resume(channelWritable: channelWritable)
    }

    /// The receiver asked to hold reading until ``resumeReading(channelWritable:)``.
    mutating func holdReading() {
        holds.insert(.heldByReceiver)
    }

    /// The receiver lets reading go on.
    mutating func resumeReading(channelWritable: Bool) -> ReadAction {
        holds.remove(.heldByReceiver)
        return resume(channelWritable: channelWritable)
    }

    /// The peer pings without reading the pongs: on the server, reads wait until
    /// ``pongsCaughtUp(channelWritable:)`` so the flood stalls the sender; a client reads on.
    mutating func pongsBackedUp() {
        if readsOnlyWhenWritable { holds.insert(.pongsBackedUp) }
    }

    /// The pongs the peer asked for are sent.
    mutating func pongsCaughtUp(channelWritable: Bool) -> ReadAction {
        holds.remove(.pongsBackedUp)
        return resume(channelWritable: channelWritable)
    }

    /// The channel's writability changed.
    mutating func channelWritabilityChanged(channelWritable: Bool) -> ReadAction {
        resume(channelWritable: channelWritable)
    }

    /// The connection closes: bytes that still arrive are ignored.
    mutating func stopReading() {
        isStopped = true
    }

    private func mayRead(channelWritable: Bool) -> Bool {
        holds.isEmpty && (channelWritable || !readsOnlyWhenWritable)
    }

    /// Makes the read held back, if there is one and nothing holds it any more.
    private mutating func resume(channelWritable: Bool) -> ReadAction {
        guard readPending, mayRead(channelWritable: channelWritable) else { return .doNothing }
        readPending = false
        return .read
    }

    // MARK: Read bursts and flushing

    /// Bytes arrived: a read burst begins (or goes on).
    mutating func channelRead() -> ChannelReadAction {
        if isStopped { return .ignore }
        if case .idle = burst { burst = .reading }
        return .decode
    }

    /// The read burst ended: flush what it wrote.
    mutating func channelReadComplete() -> FlushAction {
        defer { burst = .idle }
        if case .readingWithUnflushedWrites = burst { return .flush }
        return .doNothing
    }

    /// Bytes were written: flushed at once outside a read burst, at its end inside one.
    mutating func write() -> FlushAction {
        switch burst {
        case .idle:
            return .flush
        case .reading, .readingWithUnflushedWrites:
            burst = .readingWithUnflushedWrites
            return .doNothing
        }
    }
}
