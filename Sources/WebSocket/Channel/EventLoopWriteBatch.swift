public import NIOCore

/// A connection whose flush an ``EventLoopWriteBatch`` holds until it closes.
protocol EventLoopWriteBatchMember: AnyObject {
    /// The batch closed: flush the writes it held back.
    func flushBatchedWrites()
}

/// Holds back the flushes of one event loop's connections during ``flushingOnce(_:)``, then flushes each once,
/// so two messages to one client in one piece of work make one `write` call. Confined to its loop (checked);
/// `@unchecked Sendable` instead of a `NIOLoopBoundBox`, which would keep the loop alive through the registry.
///
/// ```swift
/// let batch = EventLoopWriteBatch.on(channel.eventLoop)
/// batch.flushingOnce {
///     for outbound in subscribers { outbound.write(patch) }   // flushed once each, here
/// }
/// ```
public final class EventLoopWriteBatch: @unchecked Sendable {
    private weak var eventLoop: (any EventLoop)?
    /// How many ``flushingOnce(_:)`` calls are running (they may nest).
    private var depth = 0
    private var members: [any EventLoopWriteBatchMember] = []

    private init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    private static let instances = PerEventLoop { EventLoopWriteBatch(eventLoop: $0) }

    /// The batch of `eventLoop`'s connections.
    public static func on(_ eventLoop: any EventLoop) -> EventLoopWriteBatch {
        instances.on(eventLoop)
    }

    /// Runs `body` on the loop, flushing each connection it wrote to once,
    /// when it returns; nested calls flush when the outermost returns.
    public func flushingOnce<Result>(_ body: () throws -> Result) rethrows -> Result {
        eventLoop?.preconditionInEventLoop()
        depth += 1
        defer {
            depth -= 1
            if depth == 0 { flushMembers() }
        }
        return try body()
    }

    /// Whether flushes are held back now: code on the loop runs inside ``flushingOnce(_:)``.
    public var isOpen: Bool { depth > 0 }

    /// Holds `member`'s flush until the batch closes; a member enlists once per batch.
    func enlist(_ member: any EventLoopWriteBatchMember) {
        members.append(member)
    }

    private func flushMembers() {
        // A flush may write again (a failed write closes its channel): those writes flush at once.
        var flushing: [any EventLoopWriteBatchMember] = []
        swap(&flushing, &members)
        for member in flushing { member.flushBatchedWrites() }
        if members.isEmpty {
            flushing.removeAll(keepingCapacity: true)
            members = flushing   // the next batch reuses the storage
        }
    }
}

/// Where one connection stands in its loop's ``EventLoopWriteBatch``: the
/// batch (looked up once) and whether its flush waits there already.
struct WriteBatchMembership {
    private var batch: EventLoopWriteBatch?
    private var enlisted = false

    /// Whether `member`, which just wrote, flushes now: no batch is open on
    /// `loop`. Otherwise it waits for the batch, enlisted once.
    mutating func flushesNow(_ member: some EventLoopWriteBatchMember, on loop: any EventLoop) -> Bool {
        let batch = self.batch ?? EventLoopWriteBatch.on(loop)
        self.batch = batch
        guard batch.isOpen else { return true }
        if !enlisted {
            enlisted = true
            batch.enlist(member)
        }
        return false
    }

    /// The batch flushed the member.
    mutating func flushed() {
        enlisted = false
    }
}
