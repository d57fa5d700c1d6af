import TestProcessSupport
import Foundation
import StateSyncTestSupport
import Testing

/// `statesync mirror` full-screen, in real terminals: panes of a private tmux
/// server, typed into with `send-keys` and read with `capture-pane`.
///
/// Without tmux the tests fail (they are not skipped): a missing tool must not
/// pass as a green run. scripts/test installs it.
@Suite(.timeLimit(.minutes(1)))
struct TmuxMirrorTests {
    private static let binary = ServeProcess.executable.path

    /// `statesync mirror` for a pane, followed by a line showing how it
    /// exited and whether the terminal mode came back as it was.
    private static func mirrorCommand(url: String, name: String) -> String {
        "sh -c 'mode=$(stty -g); \(binary) mirror --url \(url) --name \(name); status=$?; "
            + "[ \"$(stty -g)\" = \"$mode\" ] && restored=yes || restored=no; echo \"exit=$status restored=$restored\"; sleep 60'"
    }

    /// Runs `body` with a tmux server, killed afterwards.
    private static func withTmux<T>(_ body: (Tmux) async throws -> T) async throws -> T {
        try #require(Tmux.executable != nil, "tmux is not installed: the mirror tests need it (scripts/test installs it with apt-get)")
        let tmux = Tmux()
        defer { tmux.kill() }
        return try await body(tmux)
    }

    @Test func aDispatchFromAnotherProcessAppearsInTwoPanesWithinASecondAndTypingInOneChangesTheOther() async throws {
        try await CLI.withServer { url in
            try await Self.withTmux { tmux in
                try tmux.newSession("board", columns: 120, rows: 50, command: Self.mirrorCommand(url: url, name: "alice"))
                try tmux.splitVertically("board", command: Self.mirrorCommand(url: url, name: "bob"))
                let panes = ["board.0", "board.1"]
                for pane in panes {
                    #expect(try await eventually { let text = try tmux.capture(pane); return text.contains("online") && text.contains("bob") },
                            tmux.show(pane))
                }

                let added = try await CLI.run(["dispatch", #"{"type":"addTodo","title":"Milk"}"#, "--url", url])
                let id = "t" + added.output.trimmingCharacters(in: .newlines)
                for pane in panes {
                    #expect(try await eventually(within: .seconds(1)) { try tmux.capture(pane).contains("[ ] \(id)  Milk") },
                            tmux.show(pane))
                }

                try tmux.send("board.0", keys: ["inc hits 5"], literal: true)
                try tmux.send("board.0", keys: ["Enter"])
                #expect(try await eventually { try tmux.capture("board.1").contains(#/hits +5/#) }, tmux.show("board.1"))
                #expect(try await eventually { try tmux.capture("board.0").contains("✓ increment applied at rev") })

                try tmux.send("board.1", keys: ["toggle \(id.dropFirst())"], literal: true)
                try tmux.send("board.1", keys: ["Enter"])
                #expect(try await eventually { try tmux.capture("board.0").contains("[x] \(id)  Milk") }, tmux.show("board.0"))
            }
        }
    }

    @Test func rejectionsAndBadCommandsShowOnTheMessageLine() async throws {
        try await CLI.withServer { url in
            try await Self.withTmux { tmux in
                try tmux.newSession("board", columns: 100, rows: 30, command: Self.mirrorCommand(url: url, name: "alice"))
                #expect(try await eventually { try tmux.capture("board").contains("online") })
                try tmux.send("board", keys: ["rm t999"], literal: true)
                try tmux.send("board", keys: ["Enter"])
                #expect(try await eventually { try tmux.capture("board").contains("✗ removeTodo rejected (not_found)") },
                        tmux.show("board"))
                try tmux.send("board", keys: ["fly away"], literal: true)
                try tmux.send("board", keys: ["Enter"])
                #expect(try await eventually { try tmux.capture("board").contains("unknown command \"fly\": type help") })
            }
        }
    }

    @Test func ctrlCLeavesTheViewAndRestoresTheTerminal() async throws {
        try await CLI.withServer { url in
            try await Self.withTmux { tmux in
                try tmux.newSession("board", columns: 100, rows: 30, command: Self.mirrorCommand(url: url, name: "alice"))
                #expect(try await eventually { try tmux.capture("board").contains("online") })
                try tmux.send("board", keys: ["C-c"])
                #expect(try await eventually { try tmux.capture("board").contains("exit=0 restored=yes") }, tmux.show("board"))
                // Back on the normal screen: the view is gone.
                #expect(try !tmux.capture("board").contains("StateSync mirror"))
            }
        }
    }

    @Test func theLayoutFollowsTheTerminalSize() async throws {
        try await CLI.withServer { url in
            try await Self.withTmux { tmux in
                try tmux.newSession("board", columns: 120, rows: 30, command: Self.mirrorCommand(url: url, name: "alice"))
                // Wide: counters in the right column, beside the todos.
                #expect(try await eventually { try tmux.capture("board").split(separator: "\n").contains { $0.hasPrefix("── Todos") && $0.contains("── Counters") } },
                        tmux.show("board"))
                try tmux.resize("board", columns: 60, rows: 40)
                // Narrow: stacked, each heading on its own line.
                #expect(try await eventually { try tmux.capture("board").split(separator: "\n").contains { $0.hasPrefix("── Counters") } },
                        tmux.show("board"))
            }
        }
    }

    @Test func startedBeforeTheServerItShowsOfflineAndConnectsWhenItComes() async throws {
        let reserved = try ReservedPort()
        let port = reserved.port
        let url = "ws://127.0.0.1:\(port)/sync"
        try await Self.withTmux { tmux in
            try tmux.newSession("board", columns: 160, rows: 30, command: Self.mirrorCommand(url: url, name: "early"))
            #expect(try await eventually { try tmux.capture("board").contains("offline, retrying (cannot connect to \(url): connection refused)") },
                    tmux.show("board"))
            reserved.release()
            let server = try ServeProcess(["serve", "--memory", "--port", "\(port)"])
            defer { server.send(SIGTERM) }
            #expect(try await server.waitForPort() == port)
            #expect(try await eventually(within: .seconds(15)) { try tmux.capture("board").contains("· online") },
                    tmux.show("board"))
            server.send(SIGTERM)
            _ = await server.waitForExit()
        }
    }
}
