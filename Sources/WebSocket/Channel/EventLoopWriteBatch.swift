public import NIOCore

/// A connection whose flush an ``EventLoopWriteBatch`` holds until it closes.
protocol EventLoopWriteBatchMember: AnyObject {
    /// The batch closed: flush the writes it held back.
    func flushBatchedWrites()
}

/// Holds back the flushes of one event loop's connections while a piece of
/// that loop's work runs, then flushes each connection once: a server that
/// writes a client two messages in one piece of work (a change's patch,
/// then the answer to the client's action) makes one `write` call for both,
/// where each flush would be a call of its own.
///
/// Only writes made on the loop inside ``flushingOnce(_:)`` wait; others
/// are flushed as before (at once, or at the end of the connection's read).
///
/// ```swift
/// let batch = EventLoopWriteBatch.on(channel.eventLoop)
/// batch.flushingOnce {
///     for outbound in subscribers { outbound.write(patch) }   // flushed once each, here
/// }
/// ```
///
/// Confined to its loop: its state is in a `NIOLoopBoundBox`, so only code
/// running on the loop reads or changes it.
public final class EventLoopWriteBatch: Sendable {
    private struct State {
        /// How many ``flushingOnce(_:)`` calls are running (they may nest).
        var depth = 0
        var members: [any EventLoopWriteBatchMember] = []
    }

    private let state: NIOLoopBoundBox<State>

    private init(eventLoop: any EventLoop) {
        state = .makeBoxSendingValue(State(), as: State.self, eventLoop: eventLoop)
    }

    private static let instances = PerEventLoop { EventLoopWriteBatch(eventLoop: $0) }

    /// The batch of `eventLoop`'s connections.
    public static func on(_ eventLoop: any EventLoop) -> EventLoopWriteBatch {
        instances.on(eventLoop)
    }

    /// Runs `body` on the loop, flushing each connection it wrote to once,
    /// when it returns; nested calls flush when the outermost returns.
    public func flushingOnce<Result>(_ body: () throws -> Result) rethrows -> Result {
        state.value.depth += 1
        defer {
            state.value.depth -= 1
            if state.value.depth == 0 { flushMembers() }
        }
        return try body()
    }

    /// Whether flushes are held back now: code on the loop runs inside ``flushingOnce(_:)``.
    public var isOpen: Bool { state.value.depth > 0 }

    /// Holds `member`'s flush until the batch closes; a member enlists once per batch.
    func enlist(_ member: any EventLoopWriteBatchMember) {
        state.value.members.append(member)
    }

    private func flushMembers() {
        // A flush may write again (a failed write closes its channel): those writes flush at once.
        var flushing: [any EventLoopWriteBatchMember] = []
        swap(&flushing, &state.value.members)
        for member in flushing { member.flushBatchedWrites() }
        if state.value.members.isEmpty {
            flushing.removeAll(keepingCapacity: true)
            state.value.members = flushing
        }
    }
}
