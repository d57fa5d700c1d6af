import StateSyncJournal
import Synchronization
@testable import StateSyncServer

/// A ``Journal`` in front of another that counts appends and, while
/// ``hold()`` is in effect, keeps their completions (as if the fsync took
/// long) until ``release()``. It can also leave the journal open on `close`
/// (so that a test reopens the same history) and hide snapshots after a
/// revision (so that recovery replays entries). It counts the outcomes
/// looked up pair by pair and what an opening engine reads, and hands over
/// the first snapshot saved.
final class CountingJournal: Journal {
    private struct Gate {
        var appends = 0
        var entries = 0
        var holding = false
        var held: [@Sendable () -> Void] = []
        var heldWaiter: CheckedContinuation<Void, Never>?
        var failing: JournalError?
        var outcomeLookups = 0
        var recoveryReads = 0
        var savedSnapshots: [JournalSnapshot] = []
        var snapshotWaiter: CheckedContinuation<JournalSnapshot, Never>?
    }

    private let base: any Journal
    private let forwardsClose: Bool
    private let snapshotLimit: UInt64?
    private let gate = Mutex(Gate())

    /// A view of `base`; `close` closes it only when `forwardsClose`; only
    /// snapshots at or before `snapshotLimit` are visible when it is given.
    init(base: any Journal = MemoryJournal(), forwardsClose: Bool = true, snapshotLimit: UInt64? = nil) {
        self.base = base
        self.forwardsClose = forwardsClose
        self.snapshotLimit = snapshotLimit
    }

    var epoch: String { base.epoch }
    var lastRevision: UInt64 { base.lastRevision }
    var isKnownEmpty: Bool { base.isKnownEmpty }

    /// Appends seen so far.
    var appends: Int { gate.withLock { $0.appends } }

    /// Entries appended so far.
    var entries: Int { gate.withLock { $0.entries } }

    /// Outcomes of single pairs looked up so far (``outcome(clientID:actionID:)``).
    var outcomeLookups: Int { gate.withLock { $0.outcomeLookups } }

    /// What an engine reads when it opens: the latest snapshot, the clientIds with outcomes.
    var recoveryReads: Int { gate.withLock { $0.recoveryReads } }

    /// Holds back the completions of later appends.
    func hold() {
        gate.withLock { $0.holding = true }
    }

    /// Makes later appends fail with `error` (by default as a closed
    /// journal; a full disk would too), without writing them.
    func failAppends(with error: JournalError = .closed) {
        gate.withLock { $0.failing = error }
    }

    /// Waits until at least one completion is held.
    func waitUntilHolding() async {
        await withCheckedContinuation { continuation in
            let now = gate.withLock { gate in
                if !gate.held.isEmpty { return true }
                gate.heldWaiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Runs the held completions and stops holding.
    func release() {
        let held = gate.withLock { gate in
            gate.holding = false
            defer { gate.held = [] }
            return gate.held
        }
        for completion in held { completion() }
    }

    func append(_ batch: JournalBatch, completion: @escaping @Sendable (Result<Void, JournalError>) -> Void) {
        if let error = gate.withLock({ $0.failing }) {
            completion(.failure(error))
            return
        }
        base.append(batch) { result in
            let run: @Sendable () -> Void = { completion(result) }
            let (now, waiter) = self.gate.withLock { gate in
                gate.appends += 1
                gate.entries += batch.entries.count
                guard gate.holding else { return (true, nil as CheckedContinuation<Void, Never>?) }
                gate.held.append(run)
                defer { gate.heldWaiter = nil }
                return (false, gate.heldWaiter)
            }
            waiter?.resume()
            if now { run() }
        }
    }

    func saveSnapshot(_ snapshot: JournalSnapshot) async throws {
        try await base.saveSnapshot(snapshot)
        let waiter = gate.withLock { gate in
            gate.savedSnapshots.append(snapshot)
            defer { gate.snapshotWaiter = nil }
            return gate.snapshotWaiter
        }
        waiter?.resume(returning: snapshot)
    }

    /// The first snapshot saved through this view (waiting for one when none was).
    func firstSavedSnapshot() async -> JournalSnapshot {
        await withCheckedContinuation { continuation in
            let saved = gate.withLock { gate in
                if let first = gate.savedSnapshots.first { return first as JournalSnapshot? }
                gate.snapshotWaiter = continuation
                return nil
            }
            if let saved { continuation.resume(returning: saved) }
        }
    }
    func latestSnapshot() async throws -> JournalSnapshot? {
        gate.withLock { $0.recoveryReads += 1 }
        guard let snapshotLimit else { return try await base.latestSnapshot() }
        return try await base.snapshot(atOrBefore: snapshotLimit)
    }
    func snapshot(atOrBefore revision: UInt64) async throws -> JournalSnapshot? { try await base.snapshot(atOrBefore: revision) }
    func entries(from: UInt64, through: UInt64) async throws -> [JournalEntry] { try await base.entries(from: from, through: through) }
    func snapshotRevisions() async throws -> [UInt64] { try await base.snapshotRevisions() }
    func oldestRevision() async throws -> UInt64? { try await base.oldestRevision() }
    func outcome(clientID: String, actionID: String) async throws -> JournalOutcome? {
        gate.withLock { $0.outcomeLookups += 1 }
        return try await base.outcome(clientID: clientID, actionID: actionID)
    }
    func outcomeClients() async throws -> [String] {
        gate.withLock { $0.recoveryReads += 1 }
        return try await base.outcomeClients()
    }
    func outcomePairs() async throws -> OutcomePairFilter? { try await base.outcomePairs() }
    func close() async throws {
        if forwardsClose { try await base.close() }
    }
}
