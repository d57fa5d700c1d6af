import Foundation
import StateSyncCore
import StateSyncTestSupport
import Testing
import TestProcessSupport

/// `statesync stores` and `statesync stores delete`, run as processes
/// against a real `statesync serve --memory --port 0` with tokens. One
/// test at a time: each runs a server and a dozen CLI processes.
@Suite(.timeLimit(.minutes(1)), .serialized)
struct StoresCommandTests {
    static let tokens = ["--token", "adm=admin", "--token", "wr=writer"]

    @Test func anAdminListsEveryStorePageByPageAsATableAndAsJSON() async throws {
        try await CLI.withServer(Self.tokens) { url in
            for store in ["team-b", "team-a"] {
                let made = try await CLI.run(["dispatch", "increment", "counter=n", "--store", store, "--url", url, "--token", "wr"])
                #expect(made.status == 0, "\(made.errors)")
            }
            let table = try await CLI.run(["stores", "--url", url, "--token", "adm"])
            #expect(table.status == 0, "\(table.errors)")
            let lines = table.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            #expect(lines.map { $0.first } == ["NAME", "main", "team-a", "team-b"], "\(table.output)")
            #expect(lines.first == ["NAME", "OPEN", "REV", "SESSIONS", "BYTES"])
            #expect(lines.dropFirst().allSatisfy { $0[1] == "yes" }, "with --memory every store stays open: \(table.output)")

            // One store a page: the command pages until the end.
            let json = try await CLI.run(["stores", "list", "--json", "--page-size", "1", "--url", url, "--token", "adm"])
            #expect(json.status == 0, "\(json.errors)")
            let stores = try #require(try JSONValue(parsing: json.output).arrayValue)
            #expect(stores.compactMap { $0["name"]?.stringValue } == ["main", "team-a", "team-b"])
            let teamA = try #require(stores.first { $0["name"] == "team-a" })
            #expect(teamA["open"] == true && teamA["sessions"] == 0)
            #expect((teamA["rev"]?.intValue ?? 0) >= 1, "\(teamA)")
            #expect((teamA["bytes"]?.intValue ?? 0) > 0, "the state's size in memory: \(teamA)")
        }
    }

    @Test func mainCountsTheSessionsInIt() async throws {
        try await CLI.withServer { url in
            let watcher = try ServeProcess(["watch", "/counters", "--url", url])
            _ = await watcher.waitForOutput { !$0.isEmpty }
            let listed = try await CLI.run(["stores", "--json", "--url", url])
            let main = try JSONValue(parsing: listed.output).arrayValue?.first { $0["name"] == "main" }
            #expect(main?["sessions"] == 1, "\(listed.output)")
            watcher.send(SIGTERM)
            _ = await watcher.waitForExit()
            #expect(try await eventually {
                let again = try await CLI.run(["stores", "--json", "--url", url])
                return try JSONValue(parsing: again.output).arrayValue?.first { $0["name"] == "main" }?["sessions"] == 0
            })
        }
    }

    @Test func deleteRemovesAStoreAndRefusalsAreOneLineExitingOne() async throws {
        try await CLI.withServer(Self.tokens) { url in
            for store in ["gone", "busy"] {
                _ = try await CLI.run(["dispatch", "increment", "counter=n", "--store", store, "--url", url, "--token", "wr"])
            }
            let deleted = try await CLI.run(["stores", "delete", "gone", "--url", url, "--token", "adm"])
            #expect(deleted.status == 0, "\(deleted.errors)")
            #expect(deleted.output == "deleted gone\n")
            let names = try await CLI.run(["stores", "--json", "--url", url, "--token", "adm"]).output
            #expect(try JSONValue(parsing: names).arrayValue?.compactMap { $0["name"]?.stringValue } == ["busy", "main"])

            let watcher = try ServeProcess(["watch", "/counters", "--store", "busy", "--url", url, "--token", "wr"])
            _ = await watcher.waitForOutput { !$0.isEmpty }
            let refusals: [([String], String)] = [
                (["delete", "busy", "--token", "adm"], #"(409 conflict): store "busy" has 1 session(s) in it"#),
                (["delete", "main", "--token", "adm"], "(409 conflict): the store main cannot be deleted"),
                (["delete", "nope", "--token", "adm"], #"(404 not_found): no store "nope""#),
                (["--token", "wr"], "(403 forbidden)"),
                ([], "(401 unauthorized)"),
            ]
            for (arguments, expected) in refusals {
                let refused = try await CLI.run(["stores"] + arguments + ["--url", url])
                #expect(refused.status == 1, "\(arguments)")
                #expect(refused.errors.hasPrefix("statesync: the server refused \(expected)"), "\(arguments): \(refused.errors)")
                #expect(refused.errors.split(separator: "\n").count == 1)
            }
            #expect(try await CLI.run(["stores", "--url", url]).errors.contains("pass an admin token with --token"))
            watcher.send(SIGTERM)
            _ = await watcher.waitForExit()
        }
    }

    @Test func withoutAServerItSaysSoAndABadNameIsAUsageError() async throws {
        let reserved = try ReservedPort()
        let url = "ws://127.0.0.1:\(reserved.port)/sync"
        let unreachable = try await CLI.run(["stores", "--url", url])
        #expect(unreachable.status == 1)
        #expect(unreachable.errors == "statesync: cannot reach \(url): connection refused\n")
        reserved.release()
        let bad = try await CLI.run(["stores", "delete", "Bad Name", "--url", url])
        #expect(bad.status == 2)
        #expect(bad.errors.contains("is not a store name"), "\(bad.errors)")
    }
}
