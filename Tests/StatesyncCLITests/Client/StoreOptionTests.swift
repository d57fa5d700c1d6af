import TestProcessSupport
import Foundation
import StateSyncCore
import StateSyncTestSupport
import Testing

/// `--store NAME` on the client commands, run as processes against a real
/// `statesync serve --memory --port 0`.
@Suite(.timeLimit(.minutes(1)))
struct StoreOptionTests {
    @Test func dispatchAndGetWithStoreUseThatStoreAlone() async throws {
        try await CLI.withServer { url in
            let team = try await CLI.run(["dispatch", "addTodo", "title=Team milk", "--store", "team-42", "--url", url])
            #expect(team.status == 0, "\(team.errors)")
            let rev = try #require(Int(team.output.trimmingCharacters(in: .whitespacesAndNewlines)), "printed \(team.output)")
            let main = try await CLI.run(["dispatch", "addTodo", "title=Main bread", "--url", url, "--store", "main"])
            #expect(main.status == 0, "\(main.errors)")

            let teamTodos = try await CLI.run(["get", "/todos", "--store", "team-42", "--url", url])
            #expect(teamTodos.status == 0, "\(teamTodos.errors)")
            #expect(try JSONValue(parsing: teamTodos.output) == [["id": .string("t\(rev)"), "title": "Team milk", "done": false, "priority": "normal"]])
            let mainTodos = try await CLI.run(["get", "/todos", "--url", url])
            #expect(try JSONValue(parsing: mainTodos.output).arrayValue?.map { $0["title"] } == ["Main bread"])
            let otherTodos = try await CLI.run(["get", "/todos", "--store", "other", "--url", url])
            #expect(try JSONValue(parsing: otherTodos.output) == [], "\(otherTodos.output)")
        }
    }

    @Test func watchWithStoreSeesThatStoresChangesOnly() async throws {
        try await CLI.withServer { url in
            let watch = try ServeProcess(["watch", "/counters/hits", "--store", "team-42", "--url", url])
            #expect(try await eventually { watch.standardOutput == "null\n" }, "\(watch.standardOutput)")
            _ = try await CLI.run(["dispatch", "increment", "counter=hits", "by=7", "--url", url])
            _ = try await CLI.run(["dispatch", "increment", "counter=hits", "by=5", "--store", "team-42", "--url", url])
            #expect(try await eventually { watch.standardOutput == "null\n5\n" }, "\(watch.standardOutput)")
            watch.send(SIGINT)
            #expect(await watch.waitForExit() == 0)
        }
    }

    @Test func aReaderCannotCreateAStoreAndIsToldWhy() async throws {
        try await CLI.withServer(["--token", "r=reader"]) { url in
            let result = try await CLI.run(["get", "/todos", "--store", "new-one", "--url", url, "--token", "r"])
            #expect(result.status == 1)
            #expect(result.errors.hasPrefix("statesync: /todos: forbidden: "), "\(result.errors)")
        }
    }

    @Test(arguments: [
        ["get", "/todos", "--store", "Team 42"],
        ["dispatch", "addTodo", "title=Milk", "--store", ""],
        ["watch", "/todos", "--store", "../etc"],
        ["mirror", "--store", "X"],
    ])
    func aBadStoreNameIsAUsageError(_ arguments: [String]) async throws {
        // Checked before connecting: no server is needed.
        let result = try await CLI.run(arguments + ["--url", "ws://127.0.0.1:1/sync"])
        let name = arguments[arguments.firstIndex(of: "--store")! + 1]
        #expect(result.status == 2, "\(arguments): \(result.errors)")
        #expect(result.errors.contains("--store \"\(name)\" is not a store name: a store name is 1 to 64 of a-z 0-9 . _ -"),
                "\(arguments): \(result.errors)")
    }
}
