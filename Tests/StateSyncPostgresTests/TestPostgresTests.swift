import Foundation
import TestProcessSupport
import Testing

/// The harness itself: a PostgreSQL of the test's own, gone afterwards.
@Suite(.timeLimit(.minutes(2)))
struct TestPostgresTests {
    @Test func servesAServerOfItsOwnAndRemovesItAfter() async throws {
        let (port, directory) = try await TestPostgres.with { (postgres: TestPostgres) async throws -> (Int, URL) in
            #expect(try await PostgresQueries.text("SELECT current_user::text", on: postgres) == TestPostgres.user)
            #expect(try await PostgresQueries.text("SHOW listen_addresses", on: postgres) == "127.0.0.1")
            #expect(FileManager.default.fileExists(atPath: postgres.directory.appendingPathComponent("data/PG_VERSION").path))
            return (postgres.port, postgres.directory)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path), "the cluster's directory is removed")
        let stopped = try await Subprocess.run(
            [try #require(Tools.onPath("bash")).path, "-c", "exec 3<>/dev/tcp/127.0.0.1/\(port)"])
        #expect(stopped.status != 0, "nothing listens on \(port) any more")
    }

    @Test func survivesACrashAndARestartWithItsData() async throws {
        try await TestPostgres.with { postgres in
            try await PostgresQueries.run("CREATE TABLE kept (value text)", on: postgres)
            try await PostgresQueries.run("INSERT INTO kept VALUES ('committed')", on: postgres)
            try await postgres.crash()
            try await postgres.restart()
            #expect(try await PostgresQueries.text("SELECT value FROM kept", on: postgres) == "committed")
        }
    }
}
