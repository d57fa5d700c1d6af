import Testing
@testable import statesync

@Suite struct LayoutTests {
    @Test func wideTerminalsHaveTwoColumnsThatTileThePanelArea() {
        let layout = Layout(size: TerminalSize(rows: 30, columns: 100))
        let todos = layout.rect(for: .todos), chat = layout.rect(for: .chat)
        let counters = layout.rect(for: .counters), presence = layout.rect(for: .presence)
        #expect(todos.row == 2 && todos.column == 1 && todos.width == 60)
        #expect(chat.row == todos.row + todos.height && todos.height + chat.height == 27)
        #expect(counters.column == 62 && counters.width == 39 && counters.row == 2)
        #expect(presence.row == counters.row + counters.height && counters.height + presence.height == 27)
        #expect(layout.messageRow == 29 && layout.inputRow == 30)
    }

    @Test func narrowTerminalsStackThePanels() {
        let layout = Layout(size: TerminalSize(rows: 22, columns: 60))
        let rects = PanelID.allCases.map(layout.rect(for:))
        #expect(rects.allSatisfy { $0.column == 1 && $0.width == 60 })
        #expect(rects.map(\.height).reduce(0, +) == 19)
        for (upper, lower) in zip(rects, rects.dropFirst()) {
            #expect(lower.row == upper.row + upper.height)
        }
    }

    @Test func tinyTerminalsDrawNothingOutside() {
        let layout = Layout(size: TerminalSize(rows: 2, columns: 10))
        #expect(PanelID.allCases.allSatisfy { layout.rect(for: $0).height == 0 })
    }
}
