import Foundation
import StateSyncCore
import StateSyncJournal
import StateSyncPostgres
import StateSyncServer
import TestProcessSupport
import Testing

/// One total order across writers: two ``PostgresJournal``s on one store
/// (as two nodes would be) race, go stale, and retry each other's actions.
@Suite(.timeLimit(.minutes(2)))
struct PostgresTotalOrderTests {
    @Test func racingWritersCommitContiguousRevisionsAndNeverTheSameOneTwice() async throws {
        try await TestPostgres.with { postgres in
            let writers = [try await JournalFixtures.open(postgres), try await JournalFixtures.open(postgres)]
            let rounds = 40
            // Each writer appends at its own view of the head; a refused one catches up and tries again.
            let won = try await withThrowingTaskGroup(of: (Int, [UInt64]).self) { group in
                for (index, journal) in writers.enumerated() {
                    group.addTask {
                        var won: [UInt64] = []
                        for round in 0..<rounds {
                            let revision = journal.lastRevision + 1
                            let entry = JournalFixtures.entry(revision, client: "w\(index)", actionID: "r\(round)", writer: "w\(index)")
                            do {
                                try await journal.append(JournalBatch(entries: [entry]))
                                won.append(revision)
                            } catch let error as JournalError where error.isRevisionGap {
                                #expect(journal.lastRevision >= revision, "a refused writer's view moves to the head")
                            }
                        }
                        return (index, won)
                    }
                }
                return try await group.reduce(into: [[UInt64]](repeating: [], count: writers.count)) { $0[$1.0] = $1.1 }
            }
            let all = won.flatMap { $0 }.sorted()
            #expect(all == Array(1...UInt64(all.count)), "every revision committed once, contiguous")
            #expect(all.count >= rounds, "at least one writer wins each round")
            #expect(try await PostgresQueries.revisions(on: postgres) == all.map { Int64($0) })
            // Each committed revision holds the entry of the writer that was told it won.
            let stored = try await writers[0].entries(from: 1, through: UInt64(all.count))
            for (index, revisions) in won.enumerated() {
                for revision in revisions {
                    #expect(stored[Int(revision) - 1].meta.clientID == "w\(index)")
                }
            }
            for journal in writers { try await journal.close() }
        }
    }

    @Test func aStaleWriterIsRefusedWritesNothingAndCatchesUp() async throws {
        try await TestPostgres.with { postgres in
            let stale = try await JournalFixtures.open(postgres)
            let other = try await JournalFixtures.open(postgres)
            try await other.append(JournalBatch(entries: (1...3).map { JournalFixtures.entry($0, writer: "other") }))
            // `stale` still believes the head is 0 (a node paused while another wrote).
            #expect(stale.lastRevision == 0)
            let error = await #expect(throws: JournalError.self) {
                try await stale.append(JournalBatch(
                    entries: [JournalFixtures.entry(1, client: "c-stale", writer: "stale")],
                    rejections: [JournalRejection(clientID: "c-stale", actionID: "x", code: "not_found", message: "m")]))
            }
            #expect(error?.isRevisionGap == true, "\(String(describing: error))")
            #expect(try await PostgresQueries.revisions(on: postgres) == [1, 2, 3])
            #expect(try await stale.outcome(clientID: "c-stale", actionID: "x") == nil, "a refused batch writes nothing")
            // It caught up: its view is the head, it reads what it missed, and continues the order.
            #expect(stale.lastRevision == 3)
            #expect(try await stale.entries(from: 1, through: stale.lastRevision).map(\.revision) == [1, 2, 3])
            try await stale.append(JournalBatch(entries: [JournalFixtures.entry(4, writer: "stale")]))
            #expect(try await PostgresQueries.revisions(on: postgres) == [1, 2, 3, 4])
            for journal in [stale, other] { try await journal.close() }
        }
    }

    @Test func aRefusedWriterHoldsTheStoreForItsRedo() async throws {
        try await TestPostgres.with { postgres in
            // A turn longer than the test: its end cannot race the other writer.
            let stale = try await JournalFixtures.open(postgres, heldTurnLimit: .seconds(60))
            let other = try await JournalFixtures.open(postgres)
            // Closed even when a check throws: PostgresNIO traps on a connection released unclosed.
            try await withCleanup {
                try await other.append(JournalBatch(entries: (1...3).map { JournalFixtures.entry($0, writer: "other") }))
                await #expect(throws: JournalError.self) {
                    try await stale.append(JournalBatch(entries: [JournalFixtures.entry(1, writer: "stale")]))
                }
                // Its turn: `other`'s next write waits for the store row...
                let waiting = Task { try await other.append(JournalBatch(entries: [JournalFixtures.entry(4, writer: "other")])) }
                try await Self.waitForALockWait(on: postgres)
                // ...while the refused writer's redo goes in at once, in the transaction it kept.
                try await stale.append(JournalBatch(entries: [JournalFixtures.entry(4, writer: "stale")]))
                let error = await #expect(throws: JournalError.self) { try await waiting.value }
                #expect(error?.isRevisionGap == true, "\(String(describing: error))")
                #expect(try await stale.entries(from: 4, through: 4).first?.action == JournalFixtures.entry(4, writer: "stale").action)
            } cleanup: {
                for journal in [stale, other] { try await journal.close() }
            }
        }
    }

    @Test func aTurnWhoseRedoNeverComesEndsAfterTheLimit() async throws {
        try await TestPostgres.with { postgres in
            let stale = try await JournalFixtures.open(postgres, heldTurnLimit: .milliseconds(200))
            let other = try await JournalFixtures.open(postgres)
            try await other.append(JournalBatch(entries: [JournalFixtures.entry(1, writer: "other")]))
            await #expect(throws: JournalError.self) { try await stale.append(JournalBatch(entries: [JournalFixtures.entry(1, writer: "stale")])) }
            // The other writer waits for the turn's end (not its statement timeout), then goes on.
            try await other.append(JournalBatch(entries: [JournalFixtures.entry(2, writer: "other")]))
            #expect(try await PostgresQueries.revisions(on: postgres) == [1, 2])
            for journal in [stale, other] { try await journal.close() }
        }
    }

    /// Polls `pg_stat_activity` (every 10 ms, for at most 10 s: there is
    /// nothing to await) until a backend waits for a lock.
    private static func waitForALockWait(on postgres: TestPostgres) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while try await PostgresQueries.text(
            "SELECT count(*)::text FROM pg_stat_activity WHERE wait_event_type = 'Lock'", on: postgres) == "0" {
            try #require(ContinuousClock.now < deadline, "no writer waited for the store row")
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test func aRetryOnAnotherWriterFindsTheOriginalOutcome() async throws {
        try await TestPostgres.with { postgres in
            let first = try await JournalFixtures.open(postgres)
            let second = try await JournalFixtures.open(postgres)
            // The client's dispatch was committed through `first`; its ack was lost with that node.
            try await first.append(JournalBatch(
                entries: [JournalFixtures.entry(1, client: "c-9", actionID: "a-17")],
                rejections: [JournalRejection(clientID: "c-9", actionID: "a-18", code: "not_found", message: "no todo nope")]))
            // The retry reaches `second`, which answers from the store instead of applying it again.
            #expect(try await second.outcome(clientID: "c-9", actionID: "a-17") == .accepted(revision: 1))
            #expect(try await second.outcome(clientID: "c-9", actionID: "a-18") == .rejected(code: "not_found", message: "no todo nope"))
            // A second record of the pair (a writer that missed the first, though at the current head) is
            // refused whole; the first outcome stays. (A writer behind the head is refused before that, with a gap.)
            second.caughtUp(through: 1)
            let error = await #expect(throws: JournalError.self) {
                try await second.append(JournalBatch(
                    rejections: [JournalRejection(clientID: "c-9", actionID: "a-17", code: "internal_error", message: "late")]))
            }
            #expect(error?.isOutcomeConflict == true, "\(String(describing: error))")
            #expect(try await first.outcome(clientID: "c-9", actionID: "a-17") == .accepted(revision: 1))
            for journal in [first, second] { try await journal.close() }
        }
    }

    @Test func aBatchHoldingAPairAnotherWriterStoredWritesNothingAndTheWriterGoesOn() async throws {
        try await TestPostgres.with { postgres in
            let first = try await JournalFixtures.open(postgres)
            let second = try await JournalFixtures.open(postgres)
            try await first.append(JournalBatch(entries: [JournalFixtures.entry(1, client: "c-9", actionID: "a-1", writer: "first")]))
            second.caughtUp(through: 1)   // as its engine does after reading revision 1
            try await second.append(JournalBatch(entries: [JournalFixtures.entry(2, client: "c-9", actionID: "a-2", writer: "second")]))
            // The client sent a-1 to `second` too: its batch (with another client's pair) is refused whole.
            let error = await #expect(throws: JournalError.self) {
                try await second.append(JournalBatch(entries: [
                    JournalFixtures.entry(3, client: "c-8", actionID: "b-1", writer: "second"),
                    JournalFixtures.entry(4, client: "c-9", actionID: "a-1", writer: "second"),
                ]))
            }
            #expect(error?.isOutcomeConflict == true, "\(String(describing: error))")
            #expect(try await PostgresQueries.revisions(on: postgres) == [1, 2])
            #expect(try await PostgresQueries.actionIDs(of: "c-9", on: postgres) == ["a-1", "a-2"])
            #expect(try await second.outcome(clientID: "c-8", actionID: "b-1") == nil, "a refused batch writes nothing")
            #expect(try await second.outcome(clientID: "c-9", actionID: "a-1") == .accepted(revision: 1))
            // The head did not move: the writer sequences the rest again at the same revision.
            #expect(second.lastRevision == 2)
            try await second.append(JournalBatch(entries: [JournalFixtures.entry(3, client: "c-8", actionID: "b-1", writer: "second")]))
            #expect(try await PostgresQueries.revisions(on: postgres) == [1, 2, 3])
            for journal in [first, second] { try await journal.close() }
        }
    }
}
