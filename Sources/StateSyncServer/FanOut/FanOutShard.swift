import Logging
import NIOCore
import StateSyncCore

/// One event loop's share of the publication: the sessions whose writes run
/// on ``eventLoop``, their subscriptions and slow-consumer state, in a
/// ``Publication`` of their own that only this loop touches.
///
/// The sequencer hands each shard every published change once (see
/// ``FanOutShards``); the shard chooses, encodes and writes its sessions'
/// frames on its loop, so a session's writes cost no hop, no lock is shared
/// with another shard, and every core runs its connections' fan-out.
///
/// Order: the sequencer is the only one that queues work for a shard and
/// does so in its own order, and an event loop runs what it is given in
/// the order given, so a shard sees joins, subscriptions, patches and
/// answers in the sequencer's order. A drain reported by a sink is queued
/// behind what was queued before it, as the sequencer's inbox did.
final class FanOutShard: @unchecked Sendable {
    /// Where this shard's work runs, and its sessions' writes.
    let eventLoop: any EventLoop
    // Set once in `init`, then read and changed only on `eventLoop`
    // (``run(_:)``): that loop is what makes this class safe to share.
    private var publication: Publication?

    /// A shard on `eventLoop` publishing `state` at `revision`, with the
    /// history and deferred-answer limits of ``SyncEngineConfiguration``.
    init(
        eventLoop: any EventLoop, state: JSONValue, revision: UInt64, history: (capacity: Int, budget: Int),
        deferredLimits: (count: Int, bytes: Int), metrics: ServerMetrics, logger: Logger
    ) {
        self.eventLoop = eventLoop
        publication = nil
        publication = Publication(
            state: state, revision: revision, history: history, deferredLimits: deferredLimits,
            metrics: metrics, logger: logger,
            drained: { [weak self] sessionID in self?.run { $0.drained(sessionID) } })
    }

    /// Runs `body` on the shard's loop with its publication, after
    /// everything queued before it. Never runs it in place, even on the
    /// loop: a sink's callback may come from inside the publication's work.
    func run(_ body: @escaping @Sendable (inout Publication) -> Void) {
        eventLoop.execute { [self] in
            // `publication` is only `nil` during `init`, before any work can be queued.
            body(&publication!)
        }
    }

    /// The value `body` reads from the publication, on the shard's loop.
    func read<Value: Sendable>(_ body: @escaping @Sendable (Publication) -> Value) -> EventLoopFuture<Value> {
        eventLoop.submit { [self] in body(publication!) }
    }

    /// Returns once the work queued so far has run on the loop, and the
    /// large answers it handed to its ``AnswerEncoder`` have been written.
    func finish() async throws {
        let encoder = try await read { $0.answerEncoder }.get()
        await encoder.finish()
    }
}
