import Foundation
import StateSyncCore
@testable import StateSyncServer
import StateSyncJournal
import Testing

@Suite struct CommitPipelineTests {
    private static func entry(_ revision: UInt64) -> JournalEntry {
        JournalEntry(meta: Meta(revision: revision, time: fixtureTime), actionID: "a\(revision)", action: Array("{}".utf8))
    }

    private static func answer(_ id: String, _ outcome: JournalOutcome) -> DispatchAnswer {
        DispatchAnswer(sessionID: "s-1", actionID: id, outcome: outcome, received: .now, isDuplicate: false)
    }

    private static let state: JSONValue = ["n": 1]

    @Test func anEmptyRoundFlushesNothing() {
        var commits = CommitPipeline()
        guard case .none = commits.flush(state: Self.state) else {
            Issue.record("an empty pipeline flushed something")
            return
        }
        #expect(commits.isIdle)
    }

    @Test func aBatchWithEntriesGoesToTheJournalAndTheNextWaitsForIt() throws {
        var commits = CommitPipeline()
        commits.append(Self.entry(1), change: MirrorDelta(), startingEffect: {})
        commits.answer(Self.answer("a1", .accepted(revision: 1)))
        guard case .write(let written) = commits.flush(state: Self.state) else {
            Issue.record("expected a write")
            return
        }
        #expect(written.entries.map(\.revision) == [1])
        commits.append(Self.entry(2), change: MirrorDelta(), startingEffect: {})
        guard case .none = commits.flush(state: Self.state) else {
            Issue.record("a second batch went out while one was in flight")
            return
        }
        let taken = commits.durable()
        let durable = try #require(taken)
        #expect(durable.state == Self.state)
        #expect(durable.answers.map(\.actionID) == ["a1"])
        #expect(durable.effects.count == 1)
        guard case .write(let next) = commits.flush(state: Self.state) else {
            Issue.record("the waiting batch was not written after the first was durable")
            return
        }
        #expect(next.entries.map(\.revision) == [2])
    }

    @Test func answersAloneArePublishedAtOnceButNeverBeforeTheBatchInFlight() {
        var commits = CommitPipeline()
        commits.append(Self.entry(1), change: MirrorDelta(), startingEffect: {})
        _ = commits.flush(state: Self.state)
        commits.answer(Self.answer("dup", .accepted(revision: 1)))
        guard case .none = commits.flush(state: Self.state) else {
            Issue.record("an answer overtook the batch in flight")
            return
        }
        _ = commits.durable()
        guard case .publish(let batch) = commits.flush(state: Self.state) else {
            Issue.record("expected the answers to be published")
            return
        }
        #expect(batch.answers.map(\.actionID) == ["dup"])
        #expect(batch.state == nil)
    }

    @Test func aRejectedPairIsJournaledWithItsBatch() {
        var commits = CommitPipeline()
        let rejection = JournalRejection(clientID: "c-1", actionID: "a9", code: "not_found", message: "no todo")
        commits.answer(Self.answer("a9", .rejected(code: "not_found", message: "no todo")), journaling: rejection)
        guard case .write(let batch) = commits.flush(state: Self.state) else {
            Issue.record("a journaled rejection must be written before it is answered")
            return
        }
        #expect(batch.rejections == [rejection])
    }

    @Test func onceStoppedEveryAcceptedActionIsAnsweredInternalErrorAndNothingIsWritten() {
        var commits = CommitPipeline()
        commits.append(Self.entry(1), change: MirrorDelta(), startingEffect: {})
        commits.answer(Self.answer("a1", .accepted(revision: 1)))
        commits.answer(Self.answer("bad", .rejected(code: "invalid_action", message: "no")))
        commits.stop(reason: "the state no longer encodes")
        commits.stop(reason: "a later reason")
        guard case .fail(let failed) = commits.flush(state: Self.state) else {
            Issue.record("a stopped pipeline wrote a batch")
            return
        }
        #expect(failed.journal.isEmpty)
        #expect(failed.state == nil)
        #expect(failed.effects.isEmpty)
        #expect(failed.answers.map(\.outcome) == [
            .rejected(code: "internal_error", message: "the state no longer encodes"),
            .rejected(code: "invalid_action", message: "no"),
        ])
        #expect(commits.failure == "the state no longer encodes")
    }

    @Test func aJournalFailureFailsTheBatchInFlight() throws {
        var commits = CommitPipeline()
        commits.append(Self.entry(1), change: MirrorDelta(), startingEffect: {})
        commits.answer(Self.answer("a1", .accepted(revision: 1)))
        _ = commits.flush(state: Self.state)
        let taken = commits.journalFailed(reason: "the journal failed: disk full")
        let failed = try #require(taken)
        #expect(failed.answers.map(\.outcome) == [.rejected(code: "internal_error", message: "the journal failed: disk full")])
        #expect(commits.isIdle)
        #expect(commits.failure == "the journal failed: disk full")
    }
}
