import Foundation
import StateSyncCore
import Synchronization
import Testing
@testable import StateSyncServer

/// The semantics every ``Journal`` shares, run against both implementations.
@Suite(.timeLimit(.minutes(1)))
struct JournalContractTests {
    @Test(arguments: JournalKind.allCases)
    func appendedEntriesReadBackInOrder(kind: JournalKind) async throws {
        try await withTemporaryDirectory { directory in
            let journal = try await kind.make(in: directory)
            #expect(journal.lastRevision == 0)
            try await journal.append(batch(1...3))
            try await journal.append(batch(4...4))
            #expect(journal.lastRevision == 4)
            let entries = try await journal.entries(from: 1, through: 10)
            #expect(entries == (1...4).map { entry($0) })
            #expect(try await journal.entries(from: 2, through: 3) == [entry(2), entry(3)])
            #expect(try await journal.entries(from: 5, through: 9).isEmpty)
            try await journal.close()
        }
    }

    @Test(arguments: JournalKind.allCases, [[4], [2], [3, 5], [3, 3], [1, 2, 3]] as [[UInt64]])
    func gapsAreRefusedAndTheJournalStaysUsable(kind: JournalKind, revisions: [UInt64]) async throws {
        try await withTemporaryDirectory { directory in
            let journal = try await kind.make(in: directory)
            try await journal.append(batch(1...2))
            await #expect {
                try await journal.append(JournalBatch(entries: revisions.map { entry($0) }))
            } throws: { ($0 as? JournalError)?.isRevisionGap == true }
            try await journal.append(batch(3...3))
            #expect(journal.lastRevision == 3)
            #expect(try await journal.entries(from: 1, through: 9).map(\.revision) == [1, 2, 3])
            try await journal.close()
        }
    }

    @Test(arguments: JournalKind.allCases)
    func outcomesRememberAcceptsAndRejectsAndKeepTheFirst(kind: JournalKind) async throws {
        try await withTemporaryDirectory { directory in
            let journal = try await kind.make(in: directory)
            let rejection = JournalRejection(clientID: "c-1", actionID: "a9", code: "not_found", message: "no todo t9")
            try await journal.append(JournalBatch(entries: [entry(1, actionID: "a7", clientID: "c-1")], rejections: [rejection]))
            let again = JournalRejection(clientID: "c-1", actionID: "a7", code: "late", message: "second outcome")
            try await journal.append(JournalBatch(rejections: [again]))
            let system = JournalEntry(meta: Meta(revision: 2, time: fixtureTime), action: Array(#"{"type":"join"}"#.utf8))
            try await journal.append(JournalBatch(entries: [system]))

            #expect(try await journal.outcome(clientID: "c-1", actionID: "a7") == .accepted(revision: 1))
            #expect(try await journal.outcome(clientID: "c-1", actionID: "a9") == .rejected(code: "not_found", message: "no todo t9"))
            #expect(try await journal.outcome(clientID: "c-2", actionID: "a7") == nil)
            #expect(try await journal.entries(from: 2, through: 2) == [system])
            try await journal.close()
        }
    }

    @Test(arguments: JournalKind.allCases)
    func outcomesLeaveOnlyByTheirOwnClientsTrimOrWhenTheClientIsForgotten(kind: JournalKind) async throws {
        try await withTemporaryDirectory { directory in
            let journal = try await kind.make(in: directory)
            try await journal.append(JournalBatch(entries: [entry(1, actionID: "pay", clientID: "victim")]))
            // 300 outcomes of another client, then a trim of it to its last 5:
            // the victim's outcome stays, the other's oldest are gone.
            try await journal.append(JournalBatch(
                entries: (2...201).map { entry($0, clientID: "junk") },
                rejections: (1...100).map { JournalRejection(clientID: "junk", actionID: "r\($0)", code: "invalid_action", message: "no") },
                outcomeTrims: ["junk": 5]))
            #expect(try await journal.outcome(clientID: "victim", actionID: "pay") == .accepted(revision: 1))
            #expect(try await journal.outcome(clientID: "junk", actionID: "a2") == nil)
            #expect(try await journal.outcome(clientID: "junk", actionID: "r95") == nil)
            #expect(try await journal.outcome(clientID: "junk", actionID: "r96") == .rejected(code: "invalid_action", message: "no"))
            #expect(try await journal.outcome(clientID: "junk", actionID: "a201") == nil)
            #expect(try await journal.outcomeClients() == ["victim", "junk"])

            // Forgetting happens before the batch's own outcomes are recorded.
            try await journal.append(JournalBatch(
                entries: [entry(202, actionID: "again", clientID: "victim")], forgottenClients: ["victim"]))
            #expect(try await journal.outcome(clientID: "victim", actionID: "pay") == nil)
            #expect(try await journal.outcome(clientID: "victim", actionID: "again") == .accepted(revision: 202))
            #expect(try await journal.outcomeClients() == ["junk", "victim"])
            try await journal.close()
        }
    }

    @Test func theSQLiteJournalKeepsTheClientsOutcomesAcrossAReopen() async throws {
        try await withTemporaryDirectory { directory in
            let first = try await JournalKind.sqlite.make(in: directory)
            try await first.append(JournalBatch(entries: [entry(1, actionID: "pay", clientID: "victim"), entry(2, clientID: "other")]))
            try await first.close()
            let reopened = try await JournalKind.sqlite.make(in: directory)
            #expect(try await reopened.outcomeClients() == ["victim", "other"])
            #expect(try await reopened.outcome(clientID: "victim", actionID: "pay") == .accepted(revision: 1))
            try await reopened.close()
        }
    }

    @Test(arguments: JournalKind.allCases)
    func snapshotsOverTheKeptEntriesStayAndTheNearestIsFound(kind: JournalKind) async throws {
        try await withTemporaryDirectory { directory in
            let journal = try await kind.make(in: directory, retention: JournalRetention(revisions: 15, olderSnapshots: 0))
            #expect(try await journal.latestSnapshot() == nil)
            try await journal.saveSnapshot(JournalSnapshot(revision: 0, state: Array("{}".utf8)))
            try await journal.append(batch(1...30))
            for revision in [10, 20, 30] as [UInt64] {
                try await journal.saveSnapshot(JournalSnapshot(revision: revision, state: Array("{\"r\":\(revision)}".utf8)))
            }
            #expect(try await journal.latestSnapshot()?.revision == 30)
            #expect(try await journal.snapshot(atOrBefore: 25)?.state == Array("{\"r\":20}".utf8))
            // The window reaches back to 15: the snapshot at 10 is its base, 0 is older and thinned away.
            #expect(try await journal.snapshot(atOrBefore: 9) == nil)
            #expect(try await journal.snapshotRevisions() == [10, 20, 30])
            await #expect(throws: JournalError.self) {
                try await journal.saveSnapshot(JournalSnapshot(revision: 31, state: []))
            }
            try await journal.close()
        }
    }

    @Test(arguments: JournalKind.allCases)
    func oldestRevisionAndSnapshotRevisionsTellWhatTimeTravelCanRebuild(kind: JournalKind) async throws {
        try await withTemporaryDirectory { directory in
            let journal = try await kind.make(in: directory)
            #expect(try await journal.oldestRevision() == nil)
            #expect(try await journal.snapshotRevisions() == [])
            try await journal.append(batch(1...12))
            for revision in [8, 4, 12] as [UInt64] {
                try await journal.saveSnapshot(JournalSnapshot(revision: revision, state: Array("{}".utf8)))
            }
            #expect(try await journal.oldestRevision() == 1)
            #expect(try await journal.snapshotRevisions() == [4, 8, 12])
            try await journal.close()
            await #expect(throws: JournalError.self) { try await journal.snapshotRevisions() }
            await #expect(throws: JournalError.self) { try await journal.oldestRevision() }
        }
    }

    @Test(arguments: JournalKind.allCases)
    func recoveryStartsAtTheLatestSnapshotAndStreamsTheRest(kind: JournalKind) async throws {
        try await withTemporaryDirectory { directory in
            let journal = try await kind.make(in: directory)
            try await journal.append(batch(1...25))
            try await journal.saveSnapshot(JournalSnapshot(revision: 7, state: Array("7".utf8)))
            try await journal.append(batch(26...40))
            let recovery = try await journal.recovery(pageSize: 4)
            #expect(recovery.epoch == journal.epoch)
            #expect(recovery.snapshot?.revision == 7)
            #expect(recovery.lastRevision == 40)
            #expect(recovery.entries.count == 33)
            var replayed: [JournalEntry] = []
            for try await entry in recovery.entries { replayed.append(entry) }
            #expect(replayed == (8...40).map { entry($0) })
            try await journal.close()
        }
    }

    @Test(arguments: JournalKind.allCases)
    func appendsWithoutWaitingAllCompleteInOrder(kind: JournalKind) async throws {
        try await withTemporaryDirectory { directory in
            let journal = try await kind.make(in: directory)
            let count: UInt64 = 300
            let completed = Mutex<[UInt64]>([])
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                // Like the sequencer: append batch after batch without waiting.
                for revision in 1...count {
                    journal.append(batch(revision...revision)) { result in
                        let finished = completed.withLock { completed in
                            if case .success = result { completed.append(revision) } else { completed.append(0) }
                            return completed.count == Int(count)
                        }
                        if finished { done.resume() }
                    }
                }
            }
            #expect(completed.withLock { $0 } == Array(1...count))
            #expect(journal.lastRevision == count)
            #expect(try await journal.entries(from: 1, through: count).map(\.revision) == Array(1...count))
            try await journal.close()
        }
    }

    @Test(arguments: JournalKind.allCases)
    func aClosedJournalRefusesEverything(kind: JournalKind) async throws {
        try await withTemporaryDirectory { directory in
            let journal = try await kind.make(in: directory)
            try await journal.append(batch(1...1))
            try await journal.close()
            try await journal.close()
            await #expect(throws: JournalError.self) { try await journal.append(batch(2...2)) }
            await #expect(throws: JournalError.self) { try await journal.entries(from: 1, through: 1) }
            await #expect(throws: JournalError.self) { try await journal.outcome(clientID: "c-1", actionID: "a1") }
        }
    }
}
