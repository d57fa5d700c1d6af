import TestProcessSupport
import Foundation
import StateSyncTestSupport
import Testing

/// `statesync mirror` is optimistic: against `serve --inject-latency`, what
/// a pane types shows in it at once (marked pending), in the other pane one
/// latency later, and a rejected action rolls back. The assertions are on
/// order and visibility (polled panes, and what a pane drew, recorded with
/// `pipe-pane`), not on tight timings: the measured times are printed
/// (`optimistic mirror: …`) for BENCHMARKS.md.
@Suite(.timeLimit(.minutes(2)))
struct TmuxOptimisticMirrorTests {
    private static let binary = ServeProcess.executable.path

    private static func mirrorCommand(url: String, name: String, extra: [String] = []) -> String {
        ([binary, "mirror", "--url", url, "--name", name] + extra).joined(separator: " ")
    }

    private static func withTmux<T>(_ body: (Tmux) async throws -> T) async throws -> T {
        try #require(Tmux.executable != nil, "tmux is not installed: the mirror tests need it (scripts/test installs it with apt-get)")
        let tmux = Tmux()
        defer { tmux.kill() }
        return try await body(tmux)
    }

    /// What the todos panel shows once the board is in and has no todos.
    private static let emptyBoard = "no todos yet"

    /// Whether `pane` shows a todo titled `title` (not just the hint `add Milk`).
    fileprivate static func showsTodo(_ title: String, in pane: String) -> Bool {
        pane.split(separator: "\n").contains { $0.contains("] t") && $0.contains("  \(title)") }
    }

    /// The HTTP port of the server at `url` (`ws://127.0.0.1:PORT/sync`).
    private static func port(of url: String) throws -> Int {
        try #require(URL(string: url)?.port)
    }

    /// The todos of the server, read over HTTP (which has no injected latency).
    private static func serverTodos(port: Int) async throws -> String {
        try await HTTPGet.get(port: port, path: "/api/state?path=/todos").body
    }

    @Test func aTypedTodoShowsAtOnceMarkedPendingAndInTheOtherPaneOneLatencyLater() async throws {
        try await CLI.withServer(["--inject-latency", "300"]) { url in
            try await Self.withTmux { tmux in
                try tmux.newSession("board", columns: 120, rows: 40, command: Self.mirrorCommand(url: url, name: "alice"))
                try tmux.splitVertically("board", command: Self.mirrorCommand(url: url, name: "bob"))
                for pane in ["board.0", "board.1"] {
                    #expect(try await eventually { let text = try tmux.capture(pane); return text.contains(Self.emptyBoard) && text.contains("bob") },
                            tmux.show(pane))
                }

                let output = FileManager.default.temporaryDirectory.appending(path: "statesync-pane-\(UUID().uuidString).log")
                defer { try? FileManager.default.removeItem(at: output) }   // a test file: gone already is fine
                try tmux.record("board.0", to: output)
                try tmux.send("board.0", keys: ["add Milk"], literal: true)
                let clock = ContinuousClock()
                let typed = clock.now
                try tmux.send("board.0", keys: ["Enter"])
                // Poll both panes (every 10 ms, finer than `eventually`) until both
                // show Milk and the typing one lost its mark (acked): the times
                // are measured, not asserted (a busy machine delays the polling).
                var seen = PaneSightings()
                while clock.now - typed < .seconds(10) {
                    let own = try tmux.capture("board.0")
                    seen.record(typingPane: own, otherPane: try tmux.capture("board.1"), after: clock.now - typed)
                    if seen.otherPane != nil && Self.showsTodo("Milk", in: own) && !own.contains("(pending)") { break }
                    try await Task.sleep(for: .milliseconds(10))
                }
                let own = try #require(seen.typingPane), other = try #require(seen.otherPane)
                print("optimistic mirror: add Milk in the typing pane after \(own.milliseconds) ms, in the other pane after \(other.milliseconds) ms (--inject-latency 300)")
                // The other pane learns of it from the server, one latency after it was sent.
                #expect(other >= .milliseconds(300))
                #expect(try !tmux.capture("board.0").contains("(pending)"), "never acknowledged: \(tmux.show("board.0"))")
                // The typing pane drew Milk, marked pending, before the server's ack
                // (which left the server with the other pane's patch) reached it.
                #expect(try await eventually { try String(contentsOf: output, encoding: .utf8).contains("✓ addTodo applied at rev") })
                let drawn = try String(contentsOf: output, encoding: .utf8)
                let pending = try #require(drawn.range(of: "Milk  (pending)"), "the typing pane never drew Milk as pending")
                let acked = try #require(drawn.range(of: "✓ addTodo applied at rev"))
                #expect(pending.lowerBound < acked.lowerBound)
            }
        }
    }

    @Test func anActionTheServerRejectsDisappearsWithItsReasonOnTheMessageLine() async throws {
        // Toggling is for admins on this server: the pane (a writer) predicts
        // it with the board's reducer, which knows nothing of roles, and the
        // server rejects it, whatever the timing.
        try await CLI.withServer(["--inject-latency", "300", "--restrict-action", "toggleTodo=admin"]) { url in
            let port = try Self.port(of: url)
            try await Self.withTmux { tmux in
                try tmux.newSession("board", columns: 120, rows: 30, command: Self.mirrorCommand(url: url, name: "bob"))
                #expect(try await eventually { try tmux.capture("board").contains(Self.emptyBoard) }, tmux.show("board"))
                let added = try await HTTPGet.post(port: port, path: "/api/dispatch", body: #"{"type":"addTodo","title":"Milk"}"#)
                let rev = try #require(added.body.split(whereSeparator: { !$0.isNumber }).first.map(String.init), "\(added.body)")
                #expect(try await eventually { try tmux.capture("board").contains("[ ] t\(rev)  Milk") }, tmux.show("board"))

                let output = FileManager.default.temporaryDirectory.appending(path: "statesync-pane-\(UUID().uuidString).log")
                defer { try? FileManager.default.removeItem(at: output) }   // a test file: gone already is fine
                try tmux.record("board", to: output)
                try tmux.send("board", keys: ["toggle \(rev)"], literal: true)
                try tmux.send("board", keys: ["Enter"])
                // The prediction was drawn (however late the test looks), then rolled back.
                #expect(try await eventually { try String(contentsOf: output, encoding: .utf8).contains("[x] t\(rev)  Milk  (pending)") })
                #expect(try await eventually { try tmux.capture("board").contains("✗ toggleTodo rejected (forbidden)") }, tmux.show("board"))
                let shown = try tmux.capture("board")
                #expect(shown.contains("[ ] t\(rev)  Milk") && !shown.contains("(pending)"), "not rolled back: \(shown)")
            }
        }
    }

    /// The outbox file's text; empty while the mirror has not written it
    /// yet (a loaded machine may poll before its first write).
    private static func text(of outbox: URL) -> String {
        (try? String(contentsOf: outbox, encoding: .utf8)) ?? ""
    }

    @Test func aMirrorKilledWithAPendingActionSendsItAgainOnRestartAndItAppliesOnce() async throws {
        let outbox = FileManager.default.temporaryDirectory.appending(path: "statesync-mirror-outbox-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: outbox) }   // a test file: gone already is fine
        // Five seconds of latency: the checks between the server applying the
        // action and its ack must fit in them, however loaded the machine.
        try await CLI.withServer(["--inject-latency", "5000"]) { url in
            let port = try Self.port(of: url)
            try await Self.withTmux { tmux in
                let command = Self.mirrorCommand(url: url, name: "carol", extra: ["--outbox", outbox.path])
                try tmux.newSession("board", columns: 120, rows: 30, command: command)
                // The welcome, then the snapshots, each one latency away.
                #expect(try await eventually(within: .seconds(25)) { try tmux.capture("board").contains(Self.emptyBoard) }, tmux.show("board"))
                try tmux.send("board", keys: ["add Milk"], literal: true)
                try tmux.send("board", keys: ["Enter"])
                // Listed in the outbox before it is sent, and shown pending.
                #expect(try await eventually { Self.text(of: outbox).contains("Milk") },
                        "the outbox does not list the pending action: \(Self.text(of: outbox))")
                #expect(try await eventually { try tmux.capture("board").contains("Milk  (pending)") }, tmux.show("board"))
                try tmux.keepServerWhenEmpty()
                // Applied by the server, its ack five seconds away: kill the process at once.
                #expect(try await eventually { try await Self.serverTodos(port: port).contains("Milk") })
                #expect(kill(try tmux.panePID("board"), SIGKILL) == 0)

                // The pane closed with its process (the tmux server stays): start again.
                try tmux.newSession("again", columns: 120, rows: 30, command: command)
                // Its snapshot, then the ack of the action sent again, each one latency away.
                #expect(try await eventually(within: .seconds(25)) { let text = try tmux.capture("again"); return text.contains("online") && Self.showsTodo("Milk", in: text) },
                        tmux.show("again"))
                #expect(try await eventually(within: .seconds(25)) { !Self.text(of: outbox).contains("Milk") })
                #expect(try await eventually(within: .seconds(25)) { !(try tmux.capture("again").contains("(pending)")) }, tmux.show("again"))
                let todos = try await Self.serverTodos(port: port)
                #expect(todos.components(separatedBy: "Milk").count == 2, "applied more than once: \(todos)")
            }
        }
    }
}

/// When each pane was first seen showing Milk.
private struct PaneSightings {
    private(set) var typingPane: Duration?
    private(set) var otherPane: Duration?

    mutating func record(typingPane own: String, otherPane other: String, after elapsed: Duration) {
        if TmuxOptimisticMirrorTests.showsTodo("Milk", in: own) && typingPane == nil { typingPane = elapsed }
        if TmuxOptimisticMirrorTests.showsTodo("Milk", in: other) && otherPane == nil { otherPane = elapsed }
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    var milliseconds: Int64 {
        components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
    }
}
