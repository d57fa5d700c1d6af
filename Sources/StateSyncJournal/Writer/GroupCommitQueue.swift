/// The writer's bookkeeping as a plain state machine (no I/O): it validates
/// revisions on enqueue, hands out pending work as one group, and records faults.
/// The owner keeps it behind a lock and performs the returned actions outside it.
package struct GroupCommitQueue: Sendable {
    package typealias Completion = @Sendable (Result<Void, JournalError>) -> Void

    /// One unit of work for the writer.
    package enum Work: Sendable {
        case batch(JournalBatch, Completion)
        case snapshot(JournalSnapshot, Completion)

        package var completion: Completion {
            switch self {
            case .batch(_, let completion), .snapshot(_, let completion): completion
            }
        }
    }

    /// What the caller of ``enqueue(_:)`` must do next.
    package enum EnqueueAction {
        /// Start a drain on the writer thread (none is running).
        case startDrain
        /// A running drain will pick the work up.
        case none
        /// Complete the work with this error right away; nothing was queued.
        case reject(JournalError)
    }

    /// The revision of the last entry enqueued (durable or not).
    package private(set) var acceptedRevision: UInt64
    /// The revision of the last entry known durable.
    package private(set) var durableRevision: UInt64
    private var pending: [Work] = []
    private var draining = false
    private var failure: JournalError?
    /// Why writes are failing while a group is retried, or failed for good
    /// (``failed(_:reason:)``); `nil` when healthy.
    package private(set) var fault: JournalWriteFault?
    private var closed = false
    private var closeWaiters: [Completion] = []

    package init(lastRevision: UInt64) {
        acceptedRevision = lastRevision
        durableRevision = lastRevision
    }

    /// Validates and queues `work`.
    package mutating func enqueue(_ work: Work) -> EnqueueAction {
        if closed { return .reject(.closed) }
        if let failure { return .reject(failure) }
        switch work {
        case .batch(let batch, _):
            do throws(JournalError) {
                acceptedRevision = try batch.revisionAfterAppending(to: acceptedRevision)
            } catch {
                return .reject(error)
            }
        case .snapshot(let snapshot, _):
            if snapshot.revision > acceptedRevision {
                return .reject(.snapshotAhead(snapshot.revision, lastRevision: acceptedRevision))
            }
        }
        pending.append(work)
        if draining { return .none }
        draining = true
        return .startDrain
    }

    /// What the writer does next in its drain loop.
    package enum Next {
        /// Commit these in one transaction.
        case write([Work])
        /// Nothing is pending: let the storage end what it holds (`closing` once the
        /// queue is closed), then call ``endDrain()``. The drain still counts as running
        /// meanwhile, so no other drain starts beside the storage's idle work.
        case idle(closing: Bool)
    }

    /// Takes everything pending as one group, or says the drain is idle.
    package mutating func next() -> Next {
        guard pending.isEmpty else {
            defer { pending.removeAll(keepingCapacity: true) }
            return .write(pending)
        }
        return .idle(closing: !closeWaiters.isEmpty)
    }

    /// After the storage's idle work: ends the drain and returns the
    /// `close` completions to run, or `nil` when work arrived meanwhile
    /// (the drain goes on).
    package mutating func endDrain() -> [Completion]? {
        guard pending.isEmpty else { return nil }
        draining = false
        defer { closeWaiters.removeAll() }
        return closeWaiters
    }

    /// The writer woke at a deadline so that the storage can end what it
    /// holds for a group that did not come: `true` when it may drain now
    /// (no drain is going and the queue is open), which starts one.
    package mutating func startIdleDrain() -> Bool {
        if draining || closed { return false }
        draining = true
        return true
    }

    /// Records a failed attempt at a group that will be retried (it stays
    /// with the writer, and the drain stays running so that new work
    /// waits behind it); returns the number of failures so far.
    package mutating func retrying(reason: String) -> Int {
        let failures = (fault?.failures ?? 0) + 1
        fault = JournalWriteFault(reason: reason, failures: failures)
        return failures
    }

    /// Records that `group` was committed (which ends any write fault).
    package mutating func committed(_ group: [Work]) {
        fault = nil
        if let last = group.lastEntryRevision { durableRevision = last }
    }

    /// Another writer moved the shared store's head to `head`: the refused group and
    /// everything pending were built on a stale view and are returned to fail with
    /// ``JournalError/isRevisionGap``. The journal stays usable and continues from `head`.
    package mutating func refused(head: UInt64) -> [Work] {
        acceptedRevision = head
        durableRevision = head
        fault = nil
        defer { pending.removeAll() }
        return pending
    }

    /// The owner applied every entry through `revision` (``SharedJournal/caughtUp(through:)``):
    /// the next batch continues after it, unless the owner's own work is pending or in flight.
    package mutating func caughtUp(through revision: UInt64) {
        guard pending.isEmpty, acceptedRevision == durableRevision, failure == nil else { return }
        acceptedRevision = revision
        durableRevision = revision
    }

    /// Whether ``close(completion:)`` was called.
    package var isClosed: Bool { closed }

    /// Records a failed write, for the path-free `reason`, which ``fault``
    /// keeps (final) from then on; returns the work still pending, which
    /// must be failed too. Every later `enqueue` is rejected with the same error.
    package mutating func failed(_ error: JournalError, reason: String) -> [Work] {
        failure = .failed(after: error)
        fault = JournalWriteFault(reason: reason, failures: (fault?.failures ?? 0) + 1, isFinal: true)
        acceptedRevision = durableRevision
        defer { pending.removeAll() }
        return pending
    }

    /// What the caller of ``close(completion:)`` must do next.
    package enum CloseAction {
        /// No drain runs: release the resources now.
        case closeNow
        /// A drain runs: `completion` runs when it ends (``next()`` returns `.stop`).
        case waitForDrain
        /// An earlier `close` already did (or is doing) it.
        case alreadyClosed
    }

    /// Marks the queue closed; later work is rejected with "closed".
    package mutating func close(completion: @escaping Completion) -> CloseAction {
        if closed { return .alreadyClosed }
        closed = true
        if !draining { return .closeNow }
        closeWaiters.append(completion)
        return .waitForDrain
    }
}

extension [GroupCommitQueue.Work] {
    /// The group's batches, in order (its snapshots left out).
    package var batches: [JournalBatch] {
        compactMap { work in
            if case .batch(let batch, _) = work { return batch }
            return nil
        }
    }

    /// Whether the group holds a batch (not only snapshots).
    package var hasBatch: Bool {
        contains { if case .batch = $0 { true } else { false } }
    }

    /// The revision of the group's last entry, or `nil` when it has none.
    package var lastEntryRevision: UInt64? {
        for case .batch(let batch, _) in reversed() {
            if let last = batch.entries.last { return last.revision }
        }
        return nil
    }

    /// The revision of the group's first entry, or `nil` when it has none.
    package var firstEntryRevision: UInt64? {
        for case .batch(let batch, _) in self {
            if let first = batch.entries.first { return first.revision }
        }
        return nil
    }
}
