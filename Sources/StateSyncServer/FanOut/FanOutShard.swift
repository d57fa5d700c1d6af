import CoreMetrics
import Logging
import NIOCore
import StateSyncCore
import Synchronization

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
/// does so in its own order; the shard keeps it in a queue of its own and
/// runs it on its loop in that order, so it sees joins, subscriptions,
/// patches and answers in the sequencer's order. A drain reported by a sink
/// is queued behind what was queued before it, as the sequencer's inbox did.
///
/// Changes that arrive while the loop is still busy with earlier work wait
/// in the queue, and one that arrives right behind another is merged into
/// it (``PublishedChange/append(_:)``): a shard that cannot keep up sends
/// each subscriber one patch for all of them, and its queue does not grow
/// with the commits it has not sent yet.
final class FanOutShard: @unchecked Sendable {
    /// Where this shard's work runs, and its sessions' writes.
    let eventLoop: any EventLoop
    // Set once in `init`, then read and changed only on `eventLoop`
    // (``drain()``): that loop is what makes this class safe to share.
    private var publication: Publication?
    private let queue = Mutex(ShardQueue())
    private let merged: Counter

    /// A shard on `eventLoop` publishing `state` at `revision`, with the
    /// history and deferred-answer limits of ``SyncEngineConfiguration``.
    init(
        eventLoop: any EventLoop, state: JSONValue, revision: UInt64, history: (capacity: Int, budget: Int),
        deferredLimits: (count: Int, bytes: Int), metrics: ServerMetrics, logger: Logger
    ) {
        self.eventLoop = eventLoop
        merged = metrics.changesMerged
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
        enqueue(.work(body))
    }

    /// Publishes `change` on the shard's loop after everything queued
    /// before it; merged into the change queued right before it, if that
    /// one has not started yet.
    func publish(_ change: PublishedChange) {
        enqueue(.publish(change))
    }

    /// The value `body` reads from the publication, on the shard's loop.
    ///
    /// Behind everything queued before it: a queue that holds work has a
    /// drain of it in the loop's own queue already (scheduled when its
    /// first job came), and `submit` comes after that drain.
    func read<Value: Sendable>(_ body: @escaping @Sendable (Publication) -> Value) -> EventLoopFuture<Value> {
        eventLoop.submit { [self] in body(publication!) }
    }

    /// Returns once the work queued so far has run on the loop, and the
    /// large answers it handed to its ``AnswerEncoder`` have been written.
    func finish() async throws {
        let encoder = try await read { $0.answerEncoder }.get()
        await encoder.finish()
    }

    private func enqueue(_ job: ShardJob) {
        let (scheduleDrain, didMerge) = queue.withLock { queue in
            let didMerge = queue.add(job)
            guard !queue.drainScheduled else { return (false, didMerge) }
            queue.drainScheduled = true
            return (true, didMerge)
        }
        if didMerge { merged.increment() }
        if scheduleDrain {
            eventLoop.execute { [self] in drain() }
        }
    }

    /// Runs every job queued so far, in order. Jobs queued meanwhile (by
    /// the sequencer, or by a sink's callback from inside this work) wait
    /// for the next drain, which their arrival schedules.
    private func drain() {
        let jobs = queue.withLock { $0.takeAll() }
        for job in jobs {
            // `publication` is only `nil` during `init`, before any work can be queued.
            switch job {
            case .publish(let change): publication!.publish(change)
            case .work(let body): body(&publication!)
            }
        }
    }
}

/// One piece of a shard's queued work.
private enum ShardJob {
    /// A committed change to publish.
    case publish(PublishedChange)
    /// Anything else: a join, a request, an answer, a drain.
    case work(@Sendable (inout Publication) -> Void)
}

/// The jobs queued for a shard's loop and not yet taken by a drain.
private struct ShardQueue: ~Copyable {
    private var jobs: [ShardJob] = []
    /// A drain is in the loop's queue and has not yet taken the jobs.
    var drainScheduled = false

    /// Queues `job`, merging a change into a change right before it;
    /// returns whether it merged.
    mutating func add(_ job: ShardJob) -> Bool {
        if case .publish(let later) = job, case .publish(var earlier)? = jobs.last {
            earlier.append(later)
            jobs[jobs.count - 1] = .publish(earlier)
            return true
        }
        jobs.append(job)
        return false
    }

    /// Hands over every queued job; the next job schedules a new drain.
    mutating func takeAll() -> [ShardJob] {
        drainScheduled = false
        var taken: [ShardJob] = []
        swap(&taken, &jobs)
        return taken
    }
}
