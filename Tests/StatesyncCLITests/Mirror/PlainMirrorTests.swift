import TestProcessSupport
import Foundation
import StateSyncTestSupport
import Testing

/// `statesync mirror` with stdout on a pipe: one plain line per component change.
@Suite(.timeLimit(.minutes(1)))
struct PlainMirrorTests {
    @Test func printsALinePerComponentChange() async throws {
        try await CLI.withServer { url in
            let mirror = try ServeProcess(["mirror", "--url", url, "--name", "pipe"])
            let lines = { mirror.standardOutput.split(separator: "\n").map(String.init) }
            #expect(try await eventually { Set(lines()).isSuperset(of: ["status: online", "todos: (none)", "counters: (none)", "chat: (empty)"]) },
                    "\(mirror.standardOutput) \(mirror.standardError)")
            #expect(try await eventually { lines().contains("presence: pipe") }, "\(mirror.standardOutput)")

            let before = lines().count
            let added = try await CLI.run(["dispatch", "addTodo", "title=Milk", "--url", url])
            let rev = added.output.trimmingCharacters(in: .newlines)
            #expect(try await eventually { lines().contains("todos: [ ] t\(rev) Milk") }, "\(mirror.standardOutput)")
            // The dispatching process came and went (presence twice), the todos changed
            // once; the other components printed nothing.
            let after = lines().dropFirst(before).filter { !$0.hasPrefix("presence: ") }
            #expect(after == ["todos: [ ] t\(rev) Milk"])

            mirror.send(SIGTERM)
            #expect(await mirror.waitForExit() == 0)
            #expect(mirror.standardError.isEmpty, "\(mirror.standardError)")
        }
    }
}

/// `statesync mirror --store NAME`: that store's board, not main's.
@Suite(.timeLimit(.minutes(1)))
struct PlainMirrorStoreTests {
    @Test func mirrorsTheNamedStoreOnly() async throws {
        try await CLI.withServer { url in
            let mirror = try ServeProcess(["mirror", "--url", url, "--store", "team-42"])
            let lines = { mirror.standardOutput.split(separator: "\n").map(String.init) }
            #expect(try await eventually { Set(lines()).isSuperset(of: ["status: online", "todos: (none)"]) },
                    "\(mirror.standardOutput) \(mirror.standardError)")
            _ = try await CLI.run(["dispatch", "addTodo", "title=Main", "--url", url])
            let added = try await CLI.run(["dispatch", "addTodo", "title=Team", "--url", url, "--store", "team-42"])
            let rev = added.output.trimmingCharacters(in: .newlines)
            #expect(try await eventually { lines().contains("todos: [ ] t\(rev) Team") }, "\(mirror.standardOutput)")
            #expect(!lines().contains { $0.contains("Main") }, "main's todo shown in team-42's mirror: \(mirror.standardOutput)")

            mirror.send(SIGTERM)
            #expect(await mirror.waitForExit() == 0)
            #expect(mirror.standardError.isEmpty, "\(mirror.standardError)")
        }
    }
}

/// `statesync mirror` speaks the board's app schema version: it shows a
/// todo's priority, and a server that needs a newer board stops it.
@Suite(.timeLimit(.minutes(1)))
struct PlainMirrorSchemaVersionTests {
    @Test func showsAPriorityOtherThanNormal() async throws {
        try await CLI.withServer { url in
            let mirror = try ServeProcess(["mirror", "--url", url])
            let lines = { mirror.standardOutput.split(separator: "\n").map(String.init) }
            #expect(try await eventually { lines().contains("status: online") }, "\(mirror.standardOutput) \(mirror.standardError)")
            let rev = try await CLI.run(["dispatch", "addTodo", "title=Milk", "--url", url]).output.trimmingCharacters(in: .newlines)
            _ = try await CLI.run(["dispatch", "setPriority", "id=t\(rev)", "priority=high", "--url", url])
            #expect(try await eventually { lines().contains("todos: [ ] t\(rev) Milk  (high)") }, "\(mirror.standardOutput)")
            mirror.send(SIGTERM)
            #expect(await mirror.waitForExit() == 0)
        }
    }

    @Test func aServerOfANewerBoardStopsItWithUpgradeRequired() async throws {
        try await TestServer.with(app: BoardNext.self) { server in
            let mirror = try ServeProcess(["mirror", "--url", server.url])
            #expect(await mirror.waitForExit() == 1, "\(mirror.standardOutput)")
            #expect(mirror.standardError.contains("this server accepts version \(BoardNext.schemaVersion)"), "\(mirror.standardError)")
        }
    }
}
