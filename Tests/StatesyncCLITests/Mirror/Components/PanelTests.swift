import BoardApp
import Testing
@testable import statesync

/// Each component renders its own slice, as panel lines and as one plain line.
@Suite struct PanelTests {
    @Test func todos() {
        let panel = TodosPanel([Todo(id: "t3", title: "Milk"), Todo(id: "t12", title: "Eggs", done: true)])
        #expect(panel.title == "Todos (1 open of 2)")
        #expect(panel.lines(width: 40, height: 5) == ["[ ] t3   Milk", "[x] t12  Eggs"])
        #expect(panel.summary == "todos: [ ] t3 Milk, [x] t12 Eggs")
        #expect(TodosPanel([]).summary == "todos: (none)")
        let many = TodosPanel((1...10).map { Todo(id: "t\($0)", title: "n\($0)") })
        #expect(many.lines(width: 40, height: 4) == ["[ ] t1   n1", "[ ] t2   n2", "[ ] t3   n3", "… 7 more"])
    }

    @Test func todosShowAPriorityOtherThanNormal() {
        let panel = TodosPanel(
            [Todo(id: "t1", title: "Milk", priority: .high), Todo(id: "t2", title: "Eggs"), Todo(id: "t3", title: "Tea", priority: .low)],
            pending: ["t3"])
        #expect(panel.lines(width: 40, height: 5) == ["[ ] t1  Milk  (high)", "[ ] t2  Eggs", "[ ] t3  Tea  (low)  (pending)"])
    }

    @Test func counters() {
        let panel = CountersPanel(["misses": -2, "hits": 120])
        #expect(panel.lines(width: 40, height: 5) == ["hits    120", "misses   -2"])
        #expect(panel.lines(width: 8, height: 5) == ["hi…  120", "mi…   -2"])
        #expect(panel.summary == "counters: hits=120, misses=-2")
    }

    @Test func chatShowsTheNewestThatFit() {
        let messages = (1...5).map { ChatMessage(from: "alice", text: "m\($0)", at: "2026-11-21T10:0\($0):00Z") }
        let panel = ChatPanel(messages)
        #expect(panel.lines(width: 40, height: 2) == ["10:04 alice: m4", "10:05 alice: m5"])
        #expect(panel.summary == "chat: alice: m5")
        #expect(ChatPanel([]).summary == "chat: (empty)")
    }

    @Test func presenceEarliestFirst() {
        let panel = PresencePanel([
            "s-2": Presence(name: "bob", since: "2026-11-21T10:05:00Z"),
            "s-1": Presence(name: "alice", since: "2026-11-21T09:58:00Z"),
        ])
        #expect(panel.title == "Presence (2)")
        #expect(panel.lines(width: 20, height: 3) == ["alice  since 09:58", "bob    since 10:05"])
        #expect(panel.summary == "presence: alice, bob")
    }

    @Test func textFromTheStateCannotDriveTheTerminal() {
        let panel = TodosPanel([Todo(id: "t1", title: "\u{1B}[2Jboom")])
        #expect(panel.summary == "todos: [ ] t1 �[2Jboom")
    }
}
