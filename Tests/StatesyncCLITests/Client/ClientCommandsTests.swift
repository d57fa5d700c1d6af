import TestProcessSupport
import Foundation
import StateSyncCore
import Testing
import StateSyncTestSupport

/// `statesync get`, `dispatch` and their exit codes, run as processes
/// against a real `statesync serve --memory --port 0`.
@Suite(.timeLimit(.minutes(1)))
struct ClientCommandsTests {
    @Test func dispatchPrintsTheAckedRevisionAndGetPrintsPrettyJSON() async throws {
        try await CLI.withServer { url in
            let added = try await CLI.run(["dispatch", "--url", url, #"{"type":"addTodo","title":"Milk"}"#])
            #expect(added.status == 0, "\(added.errors)")
            let rev = try #require(Int(added.output.trimmingCharacters(in: .whitespacesAndNewlines)), "printed \(added.output)")

            let got = try await CLI.run(["get", "/todos", "--url", url])
            #expect(got.status == 0, "\(got.errors)")
            let todos = try JSONValue(parsing: got.output)
            #expect(todos == [["id": .string("t\(rev)"), "title": "Milk", "done": false, "priority": "normal"]])
            #expect(got.output.contains("\n  {\n    \"done\": false,"), "not pretty: \(got.output)")
        }
    }

    @Test func shortFormReadsNumbersAsJSONAndTheRestAsStrings() async throws {
        try await CLI.withServer { url in
            let first = try await CLI.run(["dispatch", "--url", url, "increment", "counter=hits", "by=-3"])
            #expect(first.status == 0, "\(first.errors)")
            let second = try await CLI.run(["dispatch", "--url", url, "postMessage", "text=hello world"])
            #expect(second.status == 0, "\(second.errors)")
            #expect(Int(second.output.trimmingCharacters(in: .newlines))! > Int(first.output.trimmingCharacters(in: .newlines))!)

            let state = try JSONValue(parsing: try await CLI.run(["get", "--url", url]).output)
            #expect(state["counters"] == ["hits": -3])
            #expect(state["chat"]?[0]?["text"] == "hello world")
        }
    }

    @Test func aRejectedActionExitsOneWithTheCodeAndMessage() async throws {
        try await CLI.withServer { url in
            let result = try await CLI.run(["dispatch", "--url", url, "toggleTodo", "id=t404"])
            #expect(result.status == 1)
            #expect(result.output.isEmpty)
            #expect(result.errors.hasPrefix("statesync: rejected (not_found): "), "\(result.errors)")
            #expect(result.errors.contains("t404"))
            #expect(!result.errors.contains("Error"), "a plain sentence, not a Swift error dump: \(result.errors)")
        }
    }

    @Test func withoutAServerTheCommandsSayConnectionRefused() async throws {
        let reserved = try ReservedPort()
        let url = "ws://127.0.0.1:\(reserved.port)/sync"
        for arguments in [["get", "/todos"], ["watch", "/todos"], ["dispatch", "addTodo", "title=Milk"]] {
            let result = try await CLI.run(arguments + ["--url", url])
            #expect(result.status == 1, "\(arguments)")
            #expect(result.errors == "statesync: cannot connect to \(url): connection refused\n", "\(arguments)")
        }
        reserved.release()
    }

    @Test func tokensAreSentAndARefusedOneIsOnePlainLine() async throws {
        try await CLI.withServer(["--token", "s3cret=writer"]) { url in
            let refused = try await CLI.run(["dispatch", "postMessage", "text=hi", "--url", url, "--token", "wrong"])
            #expect(refused.status == 1)
            #expect(refused.errors.hasPrefix("statesync: the server at \(url) refused the session (unauthorized)"), "\(refused.errors)")
            #expect(refused.errors.split(separator: "\n").count == 1)
            let accepted = try await CLI.run(["dispatch", "postMessage", "text=hi", "--url", url, "--token", "s3cret", "--name", "alice"])
            #expect(accepted.status == 0, "\(accepted.errors)")
            let chat = try await CLI.run(["get", "/chat/0/from", "--url", url, "--token", "s3cret"])
            #expect(chat.output == "\"alice\"\n")
        }
    }

    @Test func theURLComesFromSTATESYNC_URLWhenNotGiven() async throws {
        try await CLI.withServer { url in
            let result = try await CLI.run(["get", "/counters"], environment: ["STATESYNC_URL": url])
            #expect(result.status == 0, "\(result.errors)")
            #expect(try JSONValue(parsing: result.output) == [:])
        }
    }

    @Test func severalURLsAreTriedInTurnWhetherRepeatedOrCommaSeparated() async throws {
        let reserved = try ReservedPort()
        let dead = "ws://127.0.0.1:\(reserved.port)/sync"
        try await CLI.withServer { url in
            let repeated = try await CLI.run(["dispatch", "increment", "counter=hits", "--url", dead, "--url", url])
            #expect(repeated.status == 0, "\(repeated.errors)")
            let listed = try await CLI.run(["get", "/counters", "--url", "\(dead), \(url)"])
            #expect(listed.status == 0, "\(listed.errors)")
            #expect(try JSONValue(parsing: listed.output) == ["hits": 1])
            let fromEnvironment = try await CLI.run(["get", "/counters/hits"], environment: ["STATESYNC_URL": "\(dead),\(url)"])
            #expect(fromEnvironment.output == "1\n", "\(fromEnvironment.errors)")
        }
        let allDead = try await CLI.run(["get", "--url", "\(dead),\(dead)"])
        #expect(allDead.status == 1)
        #expect(allDead.errors == "statesync: cannot connect to \(dead): connection refused\n")
        reserved.release()
    }

    @Test(arguments: [
        (["get", "--url", "ws://127.0.0.1:1/sync,http://127.0.0.1:1/sync"], "http://127.0.0.1:1/sync is not a WebSocket URL"),
        (["dispatch", #"{"type":"addTodo","title":}"#], "at byte 26"),
        (["dispatch", "[1,2]"], "must be a JSON object, not an array"),
        (["dispatch", #"{"title":"Milk"}"#], "needs a string \"type\""),
        (["dispatch", "addTodo", "title"], "\"title\" is not KEY=VALUE"),
        (["dispatch"], "Missing expected argument"),
        (["get", "todos"], "invalid JSON pointer \"todos\""),
        (["watch", "/todos", "--bogus"], "Unknown option '--bogus'"),
        (["get", "--url", "http://127.0.0.1:1/sync"], "is not a WebSocket URL"),
    ])
    func usageErrorsExitTwoNamingTheProblem(arguments: [String], expected: String) async throws {
        // Checked before connecting: no server is needed.
        let result = try await CLI.run(arguments + (arguments.contains("--url") ? [] : ["--url", "ws://127.0.0.1:1/sync"]))
        #expect(result.status == 2, "\(arguments): \(result.errors)")
        #expect(result.errors.contains(expected), "\(arguments): \(result.errors)")
    }
}
