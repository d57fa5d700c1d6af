import BoardApp
import StateSyncCore
import StateSyncProtocol
import Testing
@testable import StateSyncServer

@Suite struct StateMirrorTests {
    @Test func mappedFootprintsReencodeOnlyTheChangedField() throws {
        var state = BoardState()
        var mirror = try StateMirror<Board>(state)
        let reducer = BoardReducer()
        let alice = SessionInfo(id: "s-a", name: "alice")
        let commands: [SessionCommand<BoardAction>] = [
            .sessionJoined(alice),
            .dispatch(.addTodo(title: "Milk"), from: alice),
            .dispatch(.increment(counter: "hits", by: 2), from: alice),
            .dispatch(.say(text: "hi"), from: alice),
        ]
        for (index, command) in commands.enumerated() {
            let footprint = try reducer.reduce(into: &state, action: command, meta: Meta(revision: UInt64(index + 1), time: fixtureTime))
            try mirror.update(to: state, footprint: footprint)
            #expect(mirror.json == (try JSONValueEncoder().encode(state)))
        }
        #expect(mirror.fullEncodes == 1)
    }

    @Test func unchangedFieldsShareStorageWithThePreviousRevision() throws {
        var state = BoardState()
        state.todos = (0..<100).map { Todo(id: "t\($0)", title: "todo \($0)") }
        var mirror = try StateMirror<Board>(state)
        let before = mirror.json
        let footprint = try BoardReducer().reduce(
            into: &state, action: .dispatch(.increment(counter: "hits", by: 1), from: SessionInfo(id: "s", name: "s")),
            meta: Meta(revision: 1, time: fixtureTime))
        try mirror.update(to: state, footprint: footprint)
        let old = try #require(before["todos"])
        let new = try #require(mirror.json["todos"])
        #expect(old.isIdentical(to: new))
    }

    @Test func everythingFootprintFallsBackToAFullEncode() throws {
        var mirror = try StateMirror<Board>(BoardState())
        var state = BoardState()
        state.counters["hits"] = 1
        try mirror.update(to: state, footprint: .everything)
        #expect(mirror.fullEncodes == 2)
        #expect(mirror.json["counters"]?["hits"] == 1)
    }
}
