import StateSyncJournal
import StateSyncPostgres
import StateSyncServer
import TestProcessSupport
import Testing

/// ``PostgresJournal`` after it lost a connection, against a real
/// PostgreSQL (``TestPostgres``): it connects again and writes resume
/// without reopening the journal, and a commit whose outcome was unknown is
/// never written twice.
@Suite(.timeLimit(.minutes(2)))
struct PostgresReconnectTests {
    @Test func appendsAgainAfterTheWritersConnectionIsTerminated() async throws {
        try await TestPostgres.with { postgres in
            let journal = try await JournalFixtures.open(postgres, statementTimeout: .seconds(1))
            try await journal.append(JournalBatch(entries: [JournalFixtures.entry(1)]))
            // The writer's connection is the one whose last statement was COMMIT.
            let terminated = try await PostgresQueries.text("""
                SELECT count(pg_terminate_backend(pid))::text FROM pg_stat_activity
                 WHERE pid <> pg_backend_pid() AND datname = 'postgres' AND query = 'COMMIT'
                """, on: postgres)
            #expect(terminated == "1")
            try await journal.append(JournalBatch(entries: [JournalFixtures.entry(2)]))
            try await journal.append(JournalBatch(entries: [JournalFixtures.entry(3)]))
            #expect(try await PostgresQueries.revisions(on: postgres) == [1, 2, 3])
            #expect(journal.lastRevision == 3)
            #expect(journal.writeFault == nil)
            #expect(try await journal.outcome(clientID: "c-1", actionID: "a2") == .accepted(revision: 2))

            // The reader's connection too: a read may fail with it, the next one connects again.
            try await PostgresQueries.run(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = 'postgres'",
                on: postgres)
            _ = try? await journal.outcome(clientID: "c-1", actionID: "a3")
            #expect(try await journal.outcome(clientID: "c-1", actionID: "a3") == .accepted(revision: 3))
            try await journal.append(JournalBatch(entries: [JournalFixtures.entry(4)]))
            #expect(try await PostgresQueries.revisions(on: postgres) == [1, 2, 3, 4])
            try await journal.close()
        }
    }

    @Test func aCommitWithAnUnknownOutcomeIsNeverWrittenTwice() async throws {
        try await TestPostgres.with { postgres in
            let journal = try await JournalFixtures.open(postgres, statementTimeout: .seconds(1))
            try await journal.append(JournalBatch(entries: [JournalFixtures.entry(1)]))
            // COMMIT of revision 2 outlasts the journal's 1 s deadline, then lands:
            // the journal cannot know, and must find out from the store's head.
            try await PostgresQueries.run("""
                CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.revision = 2 THEN PERFORM pg_sleep(2); END IF; RETURN NULL; END $$
                """, on: postgres)
            try await PostgresQueries.run("""
                CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON statesync_journal
                  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow_commit()
                """, on: postgres)
            let unknown = await #expect(throws: JournalError.self) {
                try await journal.append(JournalBatch(entries: [JournalFixtures.entry(2)]))
            }
            #expect(unknown?.isCommitOutcomeUnknown == true, "\(String(describing: unknown))")
            // The writer re-read the head (2, the commit landed) and continues from it.
            #expect(journal.lastRevision == 2)
            try await journal.append(JournalBatch(entries: [JournalFixtures.entry(3)]))
            #expect(try await PostgresQueries.revisions(on: postgres) == [1, 2, 3])
            #expect(try await journal.outcome(clientID: "c-1", actionID: "a2") == .accepted(revision: 2))
            try await journal.close()
        }
    }

    @Test func closingWhilePostgresIsDownGivesUpTheHeldWrite() async throws {
        try await TestPostgres.with { postgres in
            let journal = try await JournalFixtures.open(postgres, statementTimeout: .seconds(1))
            try await journal.append(JournalBatch(entries: [JournalFixtures.entry(1)]))
            try await postgres.crash()
            let held = Task { try await journal.append(JournalBatch(entries: [JournalFixtures.entry(2)])) }
            // The writer retries in the background: its fault is the only sign (polled).
            while journal.writeFault == nil { try await Task.sleep(for: .milliseconds(20)) }
            #expect(journal.writeFault?.reason == "PostgreSQL is unreachable")
            try await journal.close()
            await #expect(throws: JournalError.self) { try await held.value }
            try await postgres.restart()
            #expect(try await PostgresQueries.revisions(on: postgres) == [1])
        }
    }
}
