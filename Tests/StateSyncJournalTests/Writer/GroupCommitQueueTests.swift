import StateSyncJournalTesting
import Testing
@testable import StateSyncJournal

@Suite struct GroupCommitQueueTests {
    private let ignore: GroupCommitQueue.Completion = { _ in }

    @Test func workArrivingDuringADrainIsCommittedAsOneGroup() {
        var queue = GroupCommitQueue(lastRevision: 0)
        guard case .startDrain = queue.enqueue(.batch(JournalSamples.batch(1...1), ignore)) else { Issue.record(); return }
        guard case .write(let first) = queue.next() else { Issue.record(); return }
        #expect(first.count == 1)
        for revision in UInt64(2)...4 {
            guard case .none = queue.enqueue(.batch(JournalSamples.batch(revision...revision), ignore)) else { Issue.record(); return }
        }
        #expect(queue.acceptedRevision == 4)
        #expect(queue.durableRevision == 0)
        queue.committed(first)
        #expect(queue.durableRevision == 1)
        guard case .write(let second) = queue.next() else { Issue.record(); return }
        #expect(second.count == 3)
        queue.committed(second)
        #expect(queue.durableRevision == 4)
        guard case .idle(let closing) = queue.next() else { Issue.record(); return }
        #expect(!closing)
        // Work arriving while the storage does its idle work keeps the drain going.
        guard case .none = queue.enqueue(.batch(JournalSamples.batch(5...5), ignore)) else { Issue.record(); return }
        #expect(queue.endDrain() == nil)
        guard case .write(let third) = queue.next() else { Issue.record(); return }
        queue.committed(third)
        guard case .idle = queue.next() else { Issue.record(); return }
        #expect(queue.endDrain()?.isEmpty == true)
        guard case .startDrain = queue.enqueue(.batch(JournalSamples.batch(6...6), ignore)) else { Issue.record(); return }
    }

    @Test func aFailedWriteFailsThePendingWorkAndEverythingAfter() {
        var queue = GroupCommitQueue(lastRevision: 10)
        _ = queue.enqueue(.batch(JournalSamples.batch(11...11), ignore))
        _ = queue.next()
        _ = queue.enqueue(.batch(JournalSamples.batch(12...12), ignore))
        #expect(queue.retrying(reason: "a disk I/O error") == 1)
        let rest = queue.failed(
            .storage("SQLite in /data/statesync.sqlite", operation: "commit a batch", message: "disk I/O error"),
            reason: "the storage refused a write")
        #expect(rest.count == 1)
        // The fault stays, final, for /health: it is not cleared as a retried one is.
        #expect(queue.fault == JournalWriteFault(reason: "the storage refused a write", failures: 2, isFinal: true))
        #expect(queue.acceptedRevision == 10)
        guard case .reject(let error) = queue.enqueue(.batch(JournalSamples.batch(11...11), ignore)) else { Issue.record(); return }
        #expect(error.description == "the journal stopped accepting writes after a failed write: "
            + "SQLite in /data/statesync.sqlite failed to commit a batch: disk I/O error")
    }

    @Test func aRetriedGroupKeepsTheDrainAndWorkWaitsBehindItUntilItCommits() {
        var queue = GroupCommitQueue(lastRevision: 0)
        _ = queue.enqueue(.batch(JournalSamples.batch(1...1), ignore))
        guard case .write(let group) = queue.next() else { Issue.record(); return }
        #expect(queue.retrying(reason: "the disk is full") == 1)
        #expect(queue.retrying(reason: "the disk is full") == 2)
        #expect(queue.fault == JournalWriteFault(reason: "the disk is full", failures: 2))
        // The drain is still running: later work queues behind the retried group.
        guard case .none = queue.enqueue(.batch(JournalSamples.batch(2...2), ignore)) else { Issue.record(); return }
        #expect(queue.durableRevision == 0)
        queue.committed(group)
        #expect(queue.fault == nil)
        #expect(queue.durableRevision == 1)
        guard case .write(let next) = queue.next() else { Issue.record(); return }
        #expect(next.count == 1)
    }

    @Test func closeWaitsForARunningDrain() {
        var queue = GroupCommitQueue(lastRevision: 0)
        _ = queue.enqueue(.batch(JournalSamples.batch(1...1), ignore))
        guard case .waitForDrain = queue.close(completion: ignore) else { Issue.record(); return }
        guard case .alreadyClosed = queue.close(completion: ignore) else { Issue.record(); return }
        guard case .reject(let error) = queue.enqueue(.batch(JournalSamples.batch(2...2), ignore)) else { Issue.record(); return }
        #expect(error == .closed)
        guard case .write = queue.next() else { Issue.record(); return }
        guard case .idle(closing: true) = queue.next() else { Issue.record(); return }
        #expect(queue.endDrain()?.count == 1)
    }

    @Test func snapshotsPastTheAcceptedRevisionAreRejected() {
        var queue = GroupCommitQueue(lastRevision: 3)
        guard case .reject(let error) = queue.enqueue(.snapshot(JournalSnapshot(revision: 4, state: []), ignore)) else {
            Issue.record()
            return
        }
        #expect(error.description == "cannot store a snapshot at revision 4: the journal ends at revision 3")
        guard case .startDrain = queue.enqueue(.snapshot(JournalSnapshot(revision: 3, state: []), ignore)) else {
            Issue.record()
            return
        }
    }
}
