import Foundation
import NIOCore
import PostgresNIO
import StateSyncCore
@testable import StateSyncPostgres
import StateSyncServer
import TestProcessSupport
import Testing

/// How a group's outcome instructions are cut into segments
/// (``OutcomeSegments``), and that `statesync_write_group` applies them in
/// each batch's order on a real PostgreSQL.
@Suite(.timeLimit(.minutes(2)))
struct OutcomeSegmentsTests {
    private static func entry(_ revision: UInt64, _ client: String) -> JournalEntry {
        JournalFixtures.entry(revision, client: client)
    }

    @Test func batchesWithoutForgetsOrTrimsAreOneSegment() {
        let segments = OutcomeSegments([
            JournalBatch(entries: [Self.entry(1, "c-0")]),
            JournalBatch(entries: [Self.entry(2, "c-1")], rejections: [
                JournalRejection(clientID: "c-1", actionID: "x", code: "not_found", message: "no todo")]),
            JournalBatch(entries: [JournalEntry(meta: Meta(revision: 3, clientID: nil, time: Date()), actionID: nil, action: [])]),
        ])
        #expect(segments.count == 1)
        #expect(segments.accepted.map(\.action) == ["a1", "a2"])
        #expect(segments.acceptedEnds == [2])
        #expect(segments.rejectedEnds == [1])
        #expect(segments.forgottenEnds == [0])
        #expect(segments.trimEnds == [0])
    }

    @Test func aForgetAfterInsertsAndAnInsertAfterATrimStartNewSegments() {
        let segments = OutcomeSegments([
            JournalBatch(entries: [Self.entry(1, "c-0")], forgottenClients: ["c-9"]),
            JournalBatch(entries: [Self.entry(2, "c-1")], outcomeTrims: ["c-1": 5, "c-0": 3]),
            JournalBatch(outcomeTrims: ["c-1": 4]),
            JournalBatch(entries: [Self.entry(3, "c-0")]),
            JournalBatch(forgottenClients: ["c-1"]),
            JournalBatch(forgottenClients: ["c-2"]),
        ])
        // 1–3 share a segment (forget, inserts, then trims only); 4 inserts
        // after a trim; 5 forgets after an insert, and 6 joins 5.
        #expect(segments.count == 3)
        #expect(segments.forgotten == ["c-9", "c-1", "c-2"])
        #expect(segments.forgottenEnds == [1, 1, 3])
        #expect(segments.acceptedEnds == [2, 3, 3])
        #expect(segments.trims.map(\.client) == ["c-0", "c-1", "c-1"])
        #expect(segments.trims.map(\.keep) == [3, 5, 4])
        #expect(segments.trimEnds == [3, 3, 3])
    }

    @Test func theFunctionForgetsAndTrimsInEachBatchsOrder() async throws {
        try await TestPostgres.with { postgres in
            try await JournalFixtures.open(postgres).close()   // the tables, and the store at head 0
            let batches = [
                JournalBatch(entries: [Self.entry(1, "c-0"), Self.entry(2, "c-1"), Self.entry(3, "c-1")]),
                // c-0's a1 is forgotten before a4 is recorded; c-1 keeps only a3, before a5 comes.
                JournalBatch(entries: [Self.entry(4, "c-0")], forgottenClients: ["c-0"], outcomeTrims: ["c-1": 1]),
                JournalBatch(entries: [Self.entry(5, "c-1")]),
            ]
            let written = try await PostgresQueries.withConnection(to: postgres) { connection in
                let timed = TimedConnection(connection: connection, timeout: .seconds(10))
                try await timed.run("BEGIN", logger: PostgresQueries.logger)
                let written = try await PostgresStatements.writeGroup(
                    batches, entries: batches.flatMap(\.entries), from: 0, to: 5, store: "default", node: nil,
                    on: timed, logger: PostgresQueries.logger)
                try await timed.run("COMMIT", logger: PostgresQueries.logger)
                return written
            }
            #expect(written == .written)
            let outcomes = try await PostgresQueries.text(
                "SELECT string_agg(client_id || ':' || action_id, ' ' ORDER BY seq) FROM statesync_outcomes", on: postgres)
            #expect(outcomes == "c-1:a3 c-0:a4 c-1:a5")
            #expect(try await PostgresQueries.revisions(on: postgres) == [1, 2, 3, 4, 5])
        }
    }

    @Test func aStaleHeadWritesNothingAndAPairDecidedBeforeIsCounted() async throws {
        try await TestPostgres.with { postgres in
            let journal = try await JournalFixtures.open(postgres)
            try await journal.append(JournalBatch(entries: [Self.entry(1, "c-0")]))
            try await journal.close()
            let answers = try await PostgresQueries.withConnection(to: postgres) { connection in
                let timed = TimedConnection(connection: connection, timeout: .seconds(10))
                var answers: [PostgresStatements.GroupWrite] = []
                for (batch, seen) in [(JournalBatch(entries: [Self.entry(1, "c-5")]), UInt64(0)),
                                      (JournalBatch(entries: [JournalFixtures.entry(2, client: "c-0", actionID: "a1")]), 1)] {
                    try await timed.run("BEGIN", logger: PostgresQueries.logger)
                    answers.append(try await PostgresStatements.writeGroup(
                        [batch], entries: batch.entries, from: seen, to: seen + 1, store: "default", node: nil,
                        on: timed, logger: PostgresQueries.logger))
                    try await timed.run("ROLLBACK", logger: PostgresQueries.logger)
                }
                return answers
            }
            #expect(answers == [.refused, .decidedElsewhere(pairs: 1)])
            #expect(try await PostgresQueries.revisions(on: postgres) == [1])
        }
    }
}
