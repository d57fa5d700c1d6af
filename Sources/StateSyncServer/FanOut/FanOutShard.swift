import StateSyncProtocol
import CoreMetrics
import Logging
import NIOCore
import StateSyncCore
import Synchronization
import WebSocket

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
/// A change's patches are sent in slices of at most ``sliceLimit``
/// subscriptions, and the loop reads its sockets between two slices (the
/// rest of the round is run as a new task of the loop): a round for
/// thousands of sessions does not hold their dispatches, pings and closes
/// unread. Nothing else of the shard's work runs before the round is over.
///
/// Changes that arrive while the loop is still busy with earlier work wait
/// in the queue, and one that arrives right behind another is merged into
/// it (``PublishedChange/append(_:)``): a shard that cannot keep up sends
/// each subscriber one patch for all of them, and its queue does not grow
/// with the commits it has not sent yet. Work that answers with whatever
/// is published when it runs (``runReadingLatest(_:)``: a `get`, a slow
/// consumer's catch-up) does not keep two changes apart: a change queued
/// after it merges into the one before it, which the work then follows.
/// So a client sending `get`s cannot stop a shard that is behind from
/// catching up.
///
/// The publication is bound to ``eventLoop`` (`NIOLoopBoundBox`): only the
/// shard's drains, which run there, touch it.
final class FanOutShard: Sendable {
    /// Subscriptions a round visits before the loop reads its sockets again
    /// (a slice of a few milliseconds: one write each, at most).
    static let sliceLimit = 512

    /// Where this shard's work runs, and its sessions' writes.
    let eventLoop: any EventLoop
    private let publication: NIOLoopBoundBox<Publication>
    /// Holds the flushes of a drain's writes until it ends: a session sent
    /// a patch and an answer in one drain gets both in one `write` call.
    private let writeBatch: EventLoopWriteBatch
    private let queue = Mutex(ShardQueue())
    private let merged: Counter
    private let sliceLimit: Int

    /// A shard on `eventLoop` publishing `state` at `revision`, with the
    /// history and deferred-answer limits of ``SyncEngineConfiguration``,
    /// sending rounds in slices of `sliceLimit` subscriptions.
    init(
        eventLoop: any EventLoop, state: JSONValue, revision: UInt64, history: (capacity: Int, budget: Int),
        deferredLimits: (count: Int, bytes: Int), metrics: ServerMetrics, logger: Logger, sliceLimit: Int = FanOutShard.sliceLimit,
        encoder: MessageEncoder = MessageEncoder()
    ) {
        self.eventLoop = eventLoop
        self.sliceLimit = max(1, sliceLimit)
        writeBatch = EventLoopWriteBatch.on(eventLoop)
        merged = metrics.changesMerged
        // The publication reaches its shard through `reference`, set below: no cycle.
        let reference = Mutex(WeakShard())
        publication = NIOLoopBoundBox.makeBoxSendingValue(
            Publication(
                state: state, revision: revision, history: history, deferredLimits: deferredLimits,
                metrics: metrics, logger: logger, encoder: encoder,
                drained: { sessionID in reference.withLock(\.shard)?.runReadingLatest { $0.drained(sessionID) } }),
            as: Publication.self, eventLoop: eventLoop)
        reference.withLock { $0.shard = self }
    }

    /// Runs `body` on the shard's loop with its publication, after
    /// everything queued before it. Never runs it in place, even on the
    /// loop: a sink's callback may come from inside the publication's work.
    func run(_ body: @escaping @Sendable (inout Publication) -> Void) {
        enqueue(.work(body))
    }

    /// Runs `body` on the shard's loop with its publication, after
    /// everything queued before it, or after changes queued later too:
    /// for work that reads the published state and answers with whatever
    /// it is when the work runs (see the type's documentation).
    func runReadingLatest(_ body: @escaping @Sendable (inout Publication) -> Void) {
        enqueue(.readingLatest(body))
    }

    /// Publishes `change` on the shard's loop after everything queued
    /// before it; merged into the last change queued, if that one has not
    /// started yet and only ``runReadingLatest(_:)`` work follows it.
    func publish(_ change: PublishedChange) {
        enqueue(.publish(change))
    }

    /// The value `body` reads from the publication, on the shard's loop,
    /// after everything queued before it (a round in progress included).
    func read<Value: Sendable>(_ body: @escaping @Sendable (Publication) -> Value) -> EventLoopFuture<Value> {
        let promise = eventLoop.makePromise(of: Value.self)
        run { promise.succeed(body($0)) }
        return promise.futureResult
    }

    /// Returns once the work queued so far has run on the loop, and the
    /// large answers it handed to its ``AnswerEncoder`` have been written.
    func finish() async throws {
        let encoder = try await read { $0.answerEncoder }.get()
        await encoder.finish()
    }

    private func enqueue(_ job: ShardJob) {
        let (didMerge, schedule) = queue.withLock { ($0.add(job), $0.claimDrain()) }
        if didMerge { merged.increment() }
        if schedule { eventLoop.execute { [self] in drain() } }
    }

    /// Has the loop run ``drain()`` unless a drain is already in its queue.
    private func scheduleDrain() {
        if queue.withLock({ $0.claimDrain() }) {
            eventLoop.execute { [self] in drain() }
        }
    }

    /// Goes on with the round in progress, then runs the jobs queued so
    /// far, in order, until a round needs another slice: then the jobs not
    /// run go back to the front of the queue and the next slice is a new
    /// task of the loop, after what the loop has read meanwhile. Jobs
    /// queued during a drain (by the sequencer, or by a sink's callback
    /// from inside this work) wait for the next one, which their arrival
    /// schedules.
    private func drain() {
        queue.withLock { $0.drainScheduled = false }
        let finished = writeBatch.flushingOnce { publication.withValue { publication in
            guard publication.continuePublishing(limit: sliceLimit) else { return false }
            var jobs = queue.withLock { $0.takeAll() }[...]
            while let job = jobs.popFirst() {
                switch job {
                case .publish(let change):
                    guard publication.publish(change, limit: sliceLimit) else {
                        queue.withLock { $0.putBack(jobs) }
                        return false
                    }
                case .work(let body), .readingLatest(let body):
                    body(&publication)
                }
            }
            return true
        } }
        if !finished { scheduleDrain() }
    }
}

/// A shard as its publication's drain callback reaches it, without keeping it alive.
private struct WeakShard {
    weak var shard: FanOutShard?
}

/// One piece of a shard's queued work.
private enum ShardJob {
    /// A committed change to publish.
    case publish(PublishedChange)
    /// Anything else: a join, a subscription, an answer.
    case work(@Sendable (inout Publication) -> Void)
    /// Work that answers with the state published when it runs, which a
    /// later change may therefore go before.
    case readingLatest(@Sendable (inout Publication) -> Void)
}

/// The jobs queued for a shard's loop and not yet taken by a drain.
private struct ShardQueue: ~Copyable {
    private var jobs: [ShardJob] = []
    /// A drain is in the loop's queue and has not started yet.
    var drainScheduled = false

    /// Whether the caller must schedule a drain (none is scheduled yet);
    /// the next caller then need not.
    mutating func claimDrain() -> Bool {
        guard !drainScheduled else { return false }
        drainScheduled = true
        return true
    }

    /// Queues `job`, merging a change into the ``mergeTarget()``; returns
    /// whether it merged.
    mutating func add(_ job: ShardJob) -> Bool {
        if case .publish(let later) = job, let target = mergeTarget(), var earlier = takeChange(at: target) {
            earlier.append(later)
            jobs[target] = .publish(earlier)
            return true
        }
        jobs.append(job)
        return false
    }

    /// Moves the change queued at `index` out, leaving work that does
    /// nothing in its place, so that merging into it appends to its arrays
    /// in place. (Bound in a `case` pattern of `jobs[index]`, it stayed
    /// shared with the queue: each merge copied the answers merged so far.)
    private mutating func takeChange(at index: Int) -> PublishedChange? {
        guard case .publish(let change) = jobs[index] else { return nil }
        jobs[index] = .work { _ in }
        return change
    }

    /// The queued change that a change queued now merges into: the last
    /// one, when only ``ShardJob/readingLatest(_:)`` work follows it. The
    /// search stops at the first change or other work from the end.
    private func mergeTarget() -> Int? {
        for index in jobs.indices.reversed() {
            switch jobs[index] {
            case .publish: return index
            case .readingLatest: continue
            case .work: return nil
            }
        }
        return nil
    }

    /// Puts `jobs`, taken but not run, back before those queued since.
    mutating func putBack(_ jobs: ArraySlice<ShardJob>) {
        self.jobs.insert(contentsOf: jobs, at: 0)
    }

    /// Hands over every queued job.
    mutating func takeAll() -> [ShardJob] {
        var taken: [ShardJob] = []
        swap(&taken, &jobs)
        return taken
    }
}
