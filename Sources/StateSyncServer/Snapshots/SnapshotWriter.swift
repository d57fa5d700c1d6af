import Logging
import StateSyncCore
import StateSyncJournal
import Synchronization

/// Writes snapshots off the sequencer, so a large state never stalls it. At
/// most one save runs; a newer state replaces a waiting one. The task lives
/// only while there is work. A failed save is logged: recovery replays more.
final class SnapshotWriter: Sendable {
    /// A state handed over and not yet saved.
    private typealias Waiting = (state: JSONValue, revision: UInt64)

    private struct Queue {
        /// The latest state handed over and not yet taken.
        var waiting: Waiting?
        /// Whether a task is saving (it takes ``waiting`` until none is left).
        var saving = false
        /// Whether ``finish()`` was called: later states are ignored.
        var finished = false
        /// Callers of ``finish()`` waiting for the last save.
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let queue = Mutex(Queue())
    private let journal: any Journal
    /// The app's schema version, recorded with each snapshot.
    private let schemaVersion: Int
    private let logger: Logger

    /// A writer saving to `journal` snapshots of the app's `schemaVersion`.
    init(journal: any Journal, schemaVersion: Int, logger: Logger) {
        self.journal = journal
        self.schemaVersion = schemaVersion
        self.logger = logger
    }

    /// Saves `state` at `revision` soon; returns at once.
    func save(_ state: JSONValue, at revision: UInt64) {
        let startSaving = queue.withLock { queue in
            guard !queue.finished else { return false }
            queue.waiting = (state, revision)
            defer { queue.saving = true }
            return !queue.saving
        }
        if startSaving { Task.detached { await self.saveWaiting() } }
    }

    /// Waits until every state handed over has been saved; later ones are ignored.
    func finish() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let now = queue.withLock { queue in
                queue.finished = true
                guard queue.saving else { return true }
                queue.finishWaiters.append(waiter)
                return false
            }
            if now { waiter.resume() }
        }
    }

    /// Saves the waiting states, one at a time, until none is left.
    private func saveWaiting() async {
        while true {
            let (next, finishWaiters) = queue.withLock { queue -> (Waiting?, [CheckedContinuation<Void, Never>]) in
                if let waiting = queue.waiting {
                    queue.waiting = nil
                    return (waiting, [])
                }
                queue.saving = false
                let waiters = queue.finishWaiters
                queue.finishWaiters = []
                return (nil, waiters)
            }
            guard let next else {
                for waiter in finishWaiters { waiter.resume() }
                return
            }
            await write(next.state, at: next.revision)
        }
    }

    private func write(_ state: JSONValue, at revision: UInt64) async {
        let bytes = JSONSerializer().serialize(state)
        do {
            try await journal.saveSnapshot(JournalSnapshot(revision: revision, state: bytes, schemaVersion: schemaVersion))
            logger.debug("snapshot saved", metadata: ["rev": "\(revision)", "bytes": "\(bytes.count)"])
        } catch {
            logger.error("saving a snapshot failed", metadata: ["rev": "\(revision)", "error": "\(error)"])
        }
    }
}
