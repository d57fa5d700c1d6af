package import Logging
import Synchronization

/// The one group-commit writer of every stored journal (SQLite, PostgreSQL): it
/// commits everything appended while the previous group was written as one
/// transaction of its ``GroupCommitStorage``, retries a failing group with a backoff
/// while ``fault`` says why, and fails every later append after a final error.
/// Completions run on the writer's task, in append order, once their group is
/// durable. A drain task runs only while there is work, at most one at a time.
package final class GroupCommitWriter<Storage: GroupCommitStorage>: Sendable {
    private let queue: Mutex<GroupCommitQueue>
    private let storage: Storage
    private let backoff: RetryBackoff
    private let logger: Logger
    private let writeFailed: @Sendable () -> Void

    /// A writer continuing after `lastRevision`; `writeFailed` is called on
    /// every failed attempt (each retry too), for a metric.
    package init(
        storage: Storage, lastRevision: UInt64, backoff: RetryBackoff, logger: Logger,
        writeFailed: @escaping @Sendable () -> Void
    ) {
        self.storage = storage
        self.backoff = backoff
        self.logger = logger
        self.writeFailed = writeFailed
        queue = Mutex(GroupCommitQueue(lastRevision: lastRevision))
    }

    /// The highest durable revision.
    package var durableRevision: UInt64 { queue.withLock { $0.durableRevision } }

    /// Why writes are failing while a group is retried, or failed for good, or `nil`.
    package var fault: JournalWriteFault? { queue.withLock { $0.fault } }

    /// Whether ``close()`` was called.
    package var isClosed: Bool { queue.withLock { $0.isClosed } }

    /// The owner applied every entry through `revision`, other writers'
    /// included: the next group continues after it (see
    /// ``GroupCommitQueue/caughtUp(through:)``).
    package func caughtUp(through revision: UInt64) {
        queue.withLock { $0.caughtUp(through: revision) }
    }

    /// Queues `work` for the next group; it is completed right away when
    /// the queue refuses it (a gap, a failed or closed journal).
    package func enqueue(_ work: GroupCommitQueue.Work) {
        switch queue.withLock({ $0.enqueue(work) }) {
        case .startDrain: Task.detached { await self.drain() }
        case .none: break
        case .reject(let error): work.completion(.failure(error))
        }
    }

    /// Stops taking work, waits until what is pending is written, and
    /// releases the storage. Returns `false` when an earlier call did (or
    /// is doing) it.
    package func close() async throws -> Bool {
        let action: GroupCommitQueue.CloseAction = await withCheckedContinuation { continuation in
            let completion: GroupCommitQueue.Completion = { _ in continuation.resume(returning: .waitForDrain) }
            let action = queue.withLock { $0.close(completion: completion) }
            if action != .waitForDrain { continuation.resume(returning: action) }
        }
        guard action != .alreadyClosed else { return false }
        if action == .closeNow { await storage.idle(closing: true) }
        try await storage.release().get()
        return true
    }

    private func drain() async {
        while true {
            switch queue.withLock({ $0.next() }) {
            case .write(let group):
                await commit(group)
            case .idle(let closing):
                await storage.idle(closing: closing)
                guard let closeWaiters = queue.withLock({ $0.endDrain() }) else { continue }
                for waiter in closeWaiters { waiter(.success(())) }
                return
            }
        }
    }

    /// Writes `group` and runs its completions, again after a backoff while the failure
    /// is retryable. The first retryable failure is retried at once, without a fault:
    /// a connection the storage dropped meanwhile (a paused node) reopens on the retry.
    private func commit(_ group: [GroupCommitQueue.Work]) async {
        let seen = queue.withLock { $0.durableRevision }
        var retriedAtOnce = false
        while true {
            do {
                let outcome = try await storage.commit(group, after: seen)
                finish(group, outcome, seen: seen)
                return
            } catch GroupCommitFailure.retryable(let error, let reason) {
                writeFailed()
                if !retriedAtOnce {
                    retriedAtOnce = true
                    logger.notice("journal write failed; retrying at once", metadata: ["error": "\(error)"])
                    continue
                }
                guard await waitToRetry(after: error, reason: reason) else { return fail(group, with: error, reason: reason) }
            } catch GroupCommitFailure.outcomeUnknown(let error) {
                writeFailed()
                return await readHead(afterUnknown: group, error: error)
            } catch GroupCommitFailure.final(let error, let reason) {
                writeFailed()
                return fail(group, with: error, reason: reason)
            } catch {
                writeFailed()
                return fail(group, with: error as? JournalError
                    ?? .storage("the journal's storage", operation: "write a batch", message: "\(error)"),
                    reason: Self.unnamedReason)
            }
        }
    }

    private func finish(_ group: [GroupCommitQueue.Work], _ outcome: GroupCommitOutcome, seen: UInt64) {
        let failures = queue.withLock { queue -> Int? in
            let failures = queue.fault?.failures
            if case .committed = outcome { queue.committed(group) }
            return failures
        }
        if let failures { logger.notice("journal writes resumed", metadata: ["failures": "\(failures)"]) }
        switch outcome {
        case .committed:
            logger.trace("journal group committed", metadata: ["works": "\(group.count)", "revision": "\(durableRevision)"])
            for work in group { work.completion(.success(())) }
        case .refused(let head, let holdUntil):
            logger.notice("another writer moved the store's head: this node must catch up", metadata: [
                "seen": "\(seen)", "head": "\(head)"])
            let first = group.firstEntryRevision ?? seen + 1
            refuse(group, with: .revisionGap(expected: head + 1, got: first), head: head)
            if let holdUntil { wake(at: holdUntil) }
        case .decidedElsewhere(let pairs):
            logger.notice("another writer had decided some of the batch's (clientId, id) pairs: nothing was written", metadata: [
                "pairs": "\(pairs)", "head": "\(seen)"])
            refuse(group, with: .outcomeConflict(pairs: pairs), head: seen)
        }
    }

    /// `group` and everything pending fail with `error`, in order, and the
    /// queue continues from `head`: the journal stays usable.
    private func refuse(_ group: [GroupCommitQueue.Work], with error: JournalError, head: UInt64) {
        let rest = queue.withLock { $0.refused(head: head) }
        for work in group + rest { work.completion(.failure(error)) }
    }

    /// Wakes the writer at `deadline`, so that the storage can end what it
    /// holds for a group that did not come (``GroupCommitStorage/idle(closing:)``):
    /// a drain then, unless one is going (it ends with the same call).
    private func wake(at deadline: ContinuousClock.Instant) {
        Task.detached {
            try? await Task.sleep(until: deadline)
            if self.queue.withLock({ $0.startIdleDrain() }) { await self.drain() }
        }
    }

    /// Records a failed attempt (``fault``) and waits for the backoff;
    /// `false` when the journal is closing and the writer gives up instead.
    private func waitToRetry(after error: JournalError, reason: String) async -> Bool {
        let failures: Int? = queue.withLock { queue in
            queue.isClosed ? nil : queue.retrying(reason: reason)
        }
        guard let failures else { return false }
        let delay = backoff.delay(attempt: failures)
        logger.error("journal write failed; retrying", metadata: [
            "error": "\(error)", "failures": "\(failures)", "retryIn": "\(delay)"])
        do {
            try await Task.sleep(for: delay)
        } catch {
            return false
        }
        return true
    }

    /// The outcome of `group`'s commit is unknown: reads the store's head (retrying),
    /// continues from there, and fails `group` and everything after it. The completions
    /// wait for the read, so a later append is checked against the stored head.
    private func readHead(afterUnknown group: [GroupCommitQueue.Work], error: JournalError) async {
        logger.error("the outcome of a commit is unknown: reading the store's head", metadata: ["error": "\(error)"])
        while true {
            do {
                let head = try await storage.storedHead()
                let rest = queue.withLock { $0.refused(head: head) }
                logger.notice("journal writes resume from the store's head", metadata: ["head": "\(head)"])
                for work in group { work.completion(.failure(error)) }
                for work in rest { work.completion(.failure(.failed(after: error))) }
                return
            } catch let readError {
                writeFailed()
                let failure = readError as? JournalError
                    ?? .storage("the journal's storage", operation: "read the head", message: "\(readError)")
                guard await waitToRetry(after: failure, reason: "the store is unreachable") else {
                    return fail(group, with: error, reason: "the store was unreachable when the journal closed")
                }
            }
        }
    }

    /// The final fault's reason when the storage threw an error it did not
    /// classify (its text may name paths, so it stays in the log).
    private static var unnamedReason: String { "the storage refused a write; the log says why" }

    /// A write failed for good: this group fails with `error`, every later
    /// append with ``JournalError/failed(after:)``, and ``fault`` stays final
    /// for the path-free `reason`.
    private func fail(_ group: [GroupCommitQueue.Work], with error: JournalError, reason: String) {
        logger.critical("journal write failed; no further writes until the server restarts (/health answers 503)", metadata: [
            "error": "\(error)", "reason": "\(reason)"])
        let rest = queue.withLock { $0.failed(error, reason: reason) }
        for work in group { work.completion(.failure(error)) }
        for work in rest { work.completion(.failure(.failed(after: error))) }
    }
}
