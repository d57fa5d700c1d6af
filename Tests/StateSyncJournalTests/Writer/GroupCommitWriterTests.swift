import StateSyncJournal
import StateSyncJournalTesting
import Synchronization
import Testing

/// The one group-commit writer of the stored journals, against a scripted
/// storage: retries, refusals, an unknown outcome, a final failure, close.
@Suite(.timeLimit(.minutes(1)))
struct GroupCommitWriterTests {
    /// A writer on `storage`, after `head`, retrying after 1 ms.
    static func writer(_ storage: ScriptedStorage, head: UInt64 = 0, writeFailed: @escaping @Sendable () -> Void = {})
        -> GroupCommitWriter<ScriptedStorage>
    {
        let writer = GroupCommitWriter(
            storage: storage, lastRevision: head, backoff: RetryBackoff(first: .milliseconds(1), maximum: .milliseconds(2)),
            logger: quietLogger, writeFailed: writeFailed)
        return writer
    }

    /// Appends each batch without waiting, then waits for every completion; returns them in completion order.
    static func appendAll(_ batches: [JournalBatch], to writer: GroupCommitWriter<ScriptedStorage>) async -> [Result<Void, JournalError>] {
        let results = Mutex<[Result<Void, JournalError>]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            for batch in batches {
                writer.enqueue(.batch(batch, { result in
                    let finished = results.withLock { results in
                        results.append(result)
                        return results.count == batches.count
                    }
                    if finished { done.resume() }
                }))
            }
        }
        return results.withLock { $0 }
    }

    @Test func aRetryableFailureIsWrittenAgainAndReportedMeanwhile() async throws {
        let failures = Counter()
        let storage = ScriptedStorage([
            .fail(GroupCommitFailure.retryable(.storage("disk", operation: "commit", message: "full"), reason: "the disk is full")),
            .fail(GroupCommitFailure.retryable(.storage("disk", operation: "commit", message: "full"), reason: "the disk is full")),
        ])
        let writer = Self.writer(storage, writeFailed: { failures.add() })
        let results = await Self.appendAll([JournalSamples.batch(1...2)], to: writer)
        #expect(results.count == 1)
        #expect((try? results[0].get()) != nil)
        #expect(storage.commits.map(\.revisions) == [[1, 2], [1, 2], [1, 2]])
        #expect(failures.value == 2)
        #expect(writer.fault == nil)
        #expect(writer.durableRevision == 2)
        #expect(try await writer.close())
        #expect(storage.released)
    }

    @Test func aRefusedGroupFailsWithAGapAndTheWriterContinuesFromTheHead() async throws {
        let storage = ScriptedStorage([.outcome(.refused(head: 5, holdUntil: nil))])
        let writer = Self.writer(storage)
        let results = await Self.appendAll([JournalSamples.batch(1...1)], to: writer)
        #expect(results.allSatisfy { if case .failure(let error) = $0 { error.isRevisionGap } else { false } })
        #expect(writer.durableRevision == 5)
        let next = await Self.appendAll([JournalSamples.batch(6...6)], to: writer)
        #expect((try? next[0].get()) != nil)
        #expect(storage.commits.map(\.seen) == [0, 5])
        _ = try await writer.close()
    }

    @Test func aPairDecidedElsewhereFailsTheGroupAndKeepsTheHead() async throws {
        let storage = ScriptedStorage([.outcome(.decidedElsewhere(pairs: 1))], head: 3)
        let writer = Self.writer(storage, head: 3)
        let results = await Self.appendAll([JournalSamples.batch(4...4)], to: writer)
        #expect(results.allSatisfy { if case .failure(let error) = $0 { error.isOutcomeConflict } else { false } })
        #expect(writer.durableRevision == 3)
        _ = try await writer.close()
    }

    @Test func anUnknownOutcomeReadsTheHeadAndNeverReportsSuccess() async throws {
        let unknown = JournalError.commitOutcomeUnknown("the store", "connection reset")
        let storage = ScriptedStorage([.fail(GroupCommitFailure.outcomeUnknown(unknown))], head: 1)
        let writer = Self.writer(storage)
        let results = await Self.appendAll([JournalSamples.batch(1...1)], to: writer)
        #expect(results.allSatisfy { if case .failure(let error) = $0 { error.isCommitOutcomeUnknown } else { false } })
        // The group did land (the stored head says 1): the next append follows it.
        #expect(writer.durableRevision == 1)
        let next = await Self.appendAll([JournalSamples.batch(2...2)], to: writer)
        #expect((try? next[0].get()) != nil)
        _ = try await writer.close()
    }

    @Test func aFinalFailureFailsThisAndEveryLaterAppend() async throws {
        let storage = ScriptedStorage([.fail(JournalError.storage("disk", operation: "commit", message: "corrupt"))])
        let writer = Self.writer(storage)
        let results = await Self.appendAll([JournalSamples.batch(1...1)], to: writer)
        #expect(results.map { (try? $0.get()) == nil } == [true])
        let later = await Self.appendAll([JournalSamples.batch(1...1)], to: writer)
        guard case .failure(let error) = later[0] else { Issue.record("a later append succeeded"); return }
        #expect(error.description.hasPrefix("the journal stopped accepting writes after a failed write: "))
        // The fault stays, final, without the error's text (it may name paths): /health reports it.
        #expect(writer.fault == JournalWriteFault(reason: "the storage refused a write; the log says why", failures: 1, isFinal: true))
        _ = try await writer.close()
    }

    @Test func aFinalFailureWithAReasonKeepsItInTheFault() async throws {
        let refused = JournalError.storage("PostgreSQL at db", operation: "write a batch", message: "read-only (SQLSTATE 25006)")
        let storage = ScriptedStorage([.fail(GroupCommitFailure.final(refused, reason: "PostgreSQL refused a write"))])
        let writer = Self.writer(storage)
        let results = await Self.appendAll([JournalSamples.batch(1...1)], to: writer)
        #expect(results.map { (try? $0.get()) == nil } == [true])
        #expect(writer.fault == JournalWriteFault(reason: "PostgreSQL refused a write", failures: 1, isFinal: true))
        #expect(storage.commits.count == 1, "a final failure is not retried")
        _ = try await writer.close()
    }

    @Test func closeWaitsForWhatIsPendingThenReleasesTheStorageOnce() async throws {
        let storage = ScriptedStorage([])
        let writer = Self.writer(storage)
        let completed = Counter()
        for revision in 1...50 as ClosedRange<UInt64> {
            writer.enqueue(.batch(JournalSamples.batch(revision...revision), { result in
                if case .success = result { completed.add() }
            }))
        }
        #expect(try await writer.close())
        #expect(completed.value == 50)
        #expect(try await writer.close() == false)
        #expect(storage.released)
        #expect(storage.idleCalls.last == true)
        let after = await Self.appendAll([JournalSamples.batch(51...51)], to: writer)
        #expect(after.allSatisfy { (try? $0.get()) == nil })
    }
}

/// A count that callbacks on any thread add to.
final class Counter: Sendable {
    private let count = Mutex(0)

    func add() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}
