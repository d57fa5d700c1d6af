import StateSyncProtocol
import CoreMetrics
import Logging
import NIOCore
import StateSyncCore
import Synchronization
import WebSocket

/// One event loop's share of the publication: its sessions, in a
/// ``Publication`` only this loop touches (`NIOLoopBoundBox`).
///
/// The shard runs work in the sequencer's order, a round at most
/// ``sliceLimit`` subscriptions per slice so the loop reads its sockets
/// between slices. A change arriving behind another is merged into it
/// (``PublishedChange/append(_:)``), so a shard that is behind does not queue
/// up; ``runReadingLatest(_:)`` work does not keep two changes apart.
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

    /// Runs `body` on the shard's loop after everything queued before it, or
    /// after later changes too: for work that answers with whatever is published
    /// when it runs.
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

    /// Goes on with the round in progress, then runs the queued jobs in order
    /// until a round needs another slice: the rest goes back to the front and the
    /// next slice is a new loop task. Jobs queued meanwhile wait for the next drain.
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

    /// Moves the change queued at `index` out, leaving a no-op, so that merging
    /// into it appends to its arrays in place instead of copying them.
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
