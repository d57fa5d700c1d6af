import Foundation
import StateSyncCore
import StateSyncJournal
import StateSyncPostgres
import TestProcessSupport
import Testing

/// A batch that only rejects (issue 27, item 3) goes through the same
/// check of the store's head as one that appends: a rejection decided on
/// a state another node has since moved past is refused, and never becomes
/// the pair's stored outcome; decided on the current state, it is stored.
@Suite(.timeLimit(.minutes(2)))
struct PostgresStaleRejectionTests {
    static let rejection = JournalRejection(clientID: "c-9", actionID: "x", code: "not_found", message: "no todo t1")

    @Test func aRejectionDecidedOnAStaleHeadIsRefusedAndNotStored() async throws {
        try await TestPostgres.with { postgres in
            let stale = try await JournalFixtures.open(postgres)
            let other = try await JournalFixtures.open(postgres)
            try await other.append(JournalBatch(entries: [JournalFixtures.entry(1, writer: "other")]))

            await #expect {
                try await stale.append(JournalBatch(rejections: [Self.rejection]))
            } throws: { ($0 as? JournalError)?.isRevisionGap == true }
            #expect(try await other.outcome(clientID: "c-9", actionID: "x") == nil)
            #expect(stale.lastRevision == 1, "the refused writer's view moves to the head")

            // Decided again on the current head, the rejection is stored.
            try await stale.append(JournalBatch(rejections: [Self.rejection]))
            #expect(try await other.outcome(clientID: "c-9", actionID: "x") == .rejected(code: "not_found", message: "no todo t1"))
            try await stale.close()
            try await other.close()
        }
    }
}
