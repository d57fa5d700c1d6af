import BoardApp
import StateSyncClient
import Synchronization
import Testing
@testable import statesync

/// The full-screen view drawn into a ``VirtualTerminal``.
@Suite struct ScreenTests {
    /// Collects what the screen writes.
    final class Output: Sendable {
        private let writes = Mutex<[String]>([])

        func write(_ text: String) { writes.withLock { $0.append(text) } }

        /// Everything written since the last call.
        func take() -> String {
            writes.withLock { writes in
                let text = writes.joined()
                writes = []
                return text
            }
        }
    }

    private static let size = TerminalSize(rows: 20, columns: 100)

    @Test func drawsEveryPartAndOnlyThePanelWhoseSliceChanged() async {
        let output = Output()
        let screen = Screen(size: Self.size, url: "ws://127.0.0.1:8080/sync", write: output.write)
        var terminal = VirtualTerminal(rows: 20, columns: 100)
        await screen.redrawAll()
        await screen.show(TodosPanel([Todo(id: "t3", title: "Milk"), Todo(id: "t5", title: "Eggs", done: true)]))
        await screen.setStatus { $0.connection = .online; $0.rev = 7 }
        terminal.apply(output.take())
        #expect(terminal.line(1) == " StateSync mirror · ws://127.0.0.1:8080/sync · online · rev 7")
        #expect(terminal.line(2).hasPrefix("── Todos (1 open of 2) ──"))
        #expect(terminal.line(3).hasPrefix(" [ ] t3  Milk    "))
        #expect(terminal.line(4) == " [x] t5  Eggs")
        #expect(terminal.screen.contains("── Counters ──"))
        #expect(terminal.line(19) == "type help for the commands, quit or Ctrl-C to leave")
        #expect(terminal.line(20) == ">")

        await screen.show(CountersPanel(["hits": 12]))
        terminal.apply(output.take())
        let counters = Layout(size: Self.size).rect(for: .counters)
        let input = Layout(size: Self.size).inputRow
        #expect(!terminal.touched.isEmpty)
        #expect(terminal.touched.allSatisfy { cell in
            (counters.row..<counters.row + counters.height).contains(cell[0]) && cell[1] >= counters.column || cell[0] == input
        }, "only the counters panel (and the command line, where the cursor returns) is drawn")
        #expect(terminal.line(3).hasSuffix(" hits  12"))
        #expect(terminal.line(3).hasPrefix(" [ ] t3  Milk    "))
    }

    @Test func inputMessagesAndResize() async {
        let output = Output()
        let screen = Screen(size: Self.size, url: "ws://x/sync", write: output.write)
        var terminal = VirtualTerminal(rows: 20, columns: 100)
        await screen.setInput("add Milk")
        await screen.setMessage(Message(text: "✗ rejected\u{1B}[2J", kind: .failure))
        terminal.apply(output.take())
        #expect(terminal.line(20) == "> add Milk")
        #expect(terminal.line(19) == "✗ rejected�[2J", "control characters from the state are made harmless")

        var narrow = VirtualTerminal(rows: 30, columns: 50)
        await screen.resize(to: TerminalSize(rows: 30, columns: 50))
        narrow.apply(output.take())
        #expect(narrow.screen.split(separator: "\n").filter { $0.hasPrefix("── ") }.count == 4, "stacked: \(narrow.screen)")
        #expect(narrow.line(30) == "> add Milk")
    }
}
