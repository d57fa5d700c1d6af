import StateSyncJournal
import TestProcessSupport
import BoardApp
import StateSyncCore
import StateSyncProtocol
@testable import StateSyncServer
import Testing

/// Exactly-once after a restart with the journal's pairs read once at the
/// start (``Journal/outcomePairs()``): repeated pairs get their first
/// answer, new pairs cost no lookup.
@Suite(.timeLimit(.minutes(1)))
struct ExactlyOnceAfterRestartTests {
    @Test(arguments: JournalKind.allCases)
    func newPairsAfterARestartAreNotLookedUpAndRepeatedOnesKeepTheirAnswer(kind: JournalKind) async throws {
        try await withTemporaryDirectory { directory in
            let base = try await kind.make(in: directory)
            let first = try await boardEngine(journal: CountingJournal(base: base, forwardsClose: false))
            let alice = first.joinRecording("s-a", clientID: "c-a")
            for index in 0..<20 {
                first.handle(.dispatch(id: "a\(index)", action: increment("hits", by: 1)), from: "s-a")
            }
            first.handle(.dispatch(id: "bad", action: ["type": "removeTodo", "id": "t0"]), from: "s-a")
            let original = await alice.waitForAnswer("bad").filter { $0.answerID != nil }
            await first.shutdown()

            let journal = CountingJournal(base: base)
            let second = try await boardEngine(journal: journal)
            let again = second.joinRecording("s-b", clientID: "c-a")
            for index in 0..<50 {
                second.handle(.dispatch(id: "n\(index)", action: increment("hits", by: 1)), from: "s-b")
            }
            await again.waitForAnswer("n49")
            // A pair the filter may hold by chance (false positive) is looked
            // up; 50 new pairs all hitting it would be a broken filter.
            #expect(journal.outcomeLookups <= 1)

            for index in 0..<20 {
                second.handle(.dispatch(id: "a\(index)", action: increment("hits", by: 1)), from: "s-b")
            }
            second.handle(.dispatch(id: "bad", action: ["type": "removeTodo", "id": "t0"]), from: "s-b")
            let repeated = await again.waitForAnswer("bad").filter { $0.answerID.map { !$0.hasPrefix("n") } ?? false }
            #expect(repeated == original)
            let hits = try await second.value(at: "/counters/hits", session: "s-b", sink: again)
            #expect(hits.value == 70)
            await second.shutdown()
        }
    }
}
