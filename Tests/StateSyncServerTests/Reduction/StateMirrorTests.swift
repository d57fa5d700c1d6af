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
            .dispatch(.postMessage(text: "hi"), from: alice),
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
        #expect(mirror.takeChange().paths == nil)
        #expect(mirror.json["counters"]?["hits"] == 1)
    }

    @Test func elementFootprintsAddChangeAndRemoveOneEntry() throws {
        var state = BoardState()
        state.presence = Dictionary(uniqueKeysWithValues: (0..<1_000).map { ("s-\($0)", Presence(name: "n\($0)", since: "t")) })
        var mirror = try StateMirror<Board>(state)
        _ = mirror.takeChange()
        let reducer = BoardReducer()
        let newcomer = SessionInfo(id: "s-new", name: "newcomer")
        let leaver = SessionInfo(id: "s-7", name: "n7")
        let commands: [SessionCommand<BoardAction>] = [
            .sessionJoined(newcomer),
            .dispatch(.increment(counter: "hits", by: 2), from: newcomer),
            .dispatch(.increment(counter: "hits", by: 3), from: newcomer),
            .dispatch(.resetCounter(counter: "misses"), from: newcomer),
            .sessionLeft(leaver),
            .sessionLeft(SessionInfo(id: "s-unknown", name: "ghost")),
        ]
        for (index, command) in commands.enumerated() {
            let before = mirror.json
            let footprint = try reducer.reduce(into: &state, action: command, meta: Meta(revision: UInt64(index + 1), time: fixtureTime))
            try mirror.update(to: state, footprint: footprint)
            #expect(mirror.json == (try JSONValueEncoder().encode(state)))
            // Untouched entries keep their storage.
            let kept = try #require(before["presence"]?["s-3"])
            #expect(try #require(mirror.json["presence"]?["s-3"]).isIdentical(to: kept))
        }
        #expect(mirror.fullEncodes == 1)
        // Each presence change copies the ~1,000-member object plus the root
        // (5) and its entry: 1,009 for the join, 1,008 for the leave; the
        // counter changes copy small objects (7, 8, 8); the unknown leave nothing.
        let change = mirror.takeChange()
        #expect(change.cost == 2_040)
        #expect(change.paths?.map(\.description) == [
            "/presence/s-new", "/counters/hits", "/counters/hits", "/counters/misses", "/presence/s-7",
        ])
        #expect(mirror.takeChange().cost == 0)
    }
}
