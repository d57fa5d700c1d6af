import BoardApp
import StateSyncCore
import StateSyncProtocol
import StateSyncTestSupport
import Testing
@testable import StateSyncServer

@Suite(.timeLimit(.minutes(1))) struct StateMirrorArrayElementTests {
    private let alice = SessionInfo(id: "s-a", name: "alice")

    @Test func todoActionsChangeOneElementOfTheMirrorsArray() throws {
        var state = BoardState()
        state.todos = (0..<50).map { Todo(id: "t-init-\($0)", title: "todo \($0)") }
        var mirror = try StateMirror<Board>(state)
        let reducer = BoardReducer()
        let commands: [(SessionCommand<BoardAction>, String)] = [
            (.dispatch(.addTodo(title: "Milk"), from: alice), "/todos/50"),
            (.dispatch(.toggleTodo(id: "t-init-7"), from: alice), "/todos/7"),
            (.dispatch(.renameTodo(id: "t1", title: "Oat milk"), from: alice), "/todos/50"),
            (.dispatch(.removeTodo(id: "t-init-3"), from: alice), "/todos/3"),
            (.dispatch(.removeTodo(id: "t1"), from: alice), "/todos/49"),
        ]
        for (index, (command, path)) in commands.enumerated() {
            let before = mirror.json
            _ = mirror.takeChange()
            let footprint = try reducer.reduce(into: &state, action: command, meta: Meta(revision: UInt64(index + 1), time: fixtureTime))
            try mirror.update(to: state, footprint: footprint)
            #expect(mirror.json == (try JSONValueEncoder().encode(state)))
            #expect(mirror.takeChange().paths?.map(\.description) == [path])
            // An untouched todo keeps its storage: it was not re-encoded.
            let kept = try #require(before["todos"]?[0])
            #expect(try #require(mirror.json["todos"]?[0]).isIdentical(to: kept))
        }
        #expect(mirror.fullEncodes == 1)
    }

    @Test func clearingCompletedTodosReencodesTheArray() throws {
        var state = BoardState()
        state.todos = (0..<5).map { Todo(id: "t\($0)", title: "todo \($0)", done: $0.isMultiple(of: 2)) }
        var mirror = try StateMirror<Board>(state)
        let footprint = try BoardReducer().reduce(into: &state, action: .dispatch(.clearCompleted, from: alice), meta: Meta(revision: 1, time: fixtureTime))
        try mirror.update(to: state, footprint: footprint)
        #expect(mirror.json == (try JSONValueEncoder().encode(state)))
        #expect(mirror.takeChange().paths?.map(\.description) == ["/todos"])
    }

    @Test func twoElementsOfOneArrayInOneFootprintReencodeTheArray() throws {
        var state = BoardState(todos: [Todo(id: "a", title: "A"), Todo(id: "b", title: "B")])
        var mirror = try StateMirror<Board>(state)
        state.todos.append(Todo(id: "c", title: "C"))
        state.todos.removeFirst()
        let footprint = Footprint.element(of: \BoardState.todos, key: "c").union(.element(of: \BoardState.todos, key: "a"))
        try mirror.update(to: state, footprint: footprint)
        #expect(mirror.json == (try JSONValueEncoder().encode(state)))
        #expect(mirror.takeChange().paths?.map(\.description) == ["/todos", "/todos"])
    }

    @Test func elementsWhoseIDIsNotAnIDMemberReencodeTheArray() throws {
        var state = LabelList(items: [Label(id: "a", text: "A"), Label(id: "b", text: "B")])
        var mirror = try StateMirror<LabelListApp>(state)
        state.items[1].text = "Bee"
        try mirror.update(to: state, footprint: .element(of: \LabelList.items, key: "b"))
        #expect(mirror.json == (try JSONValueEncoder().encode(state)))
        #expect(mirror.takeChange().paths?.map(\.description) == ["/items"])
        state.items.remove(at: 0)
        try mirror.update(to: state, footprint: .element(of: \LabelList.items, key: "a"))
        #expect(mirror.json == (try JSONValueEncoder().encode(state)))
        #expect(mirror.takeChange().paths?.map(\.description) == ["/items"])
        #expect(mirror.fullEncodes == 1)
    }

    /// The property: for random board actions (valid and not), the mirror
    /// updated from element footprints equals a full re-encode of the
    /// state, and so does the patch from the previous revision.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func elementFootprintsMatchAFullReencode(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var state = BoardState()
        var mirror = try StateMirror<Board>(state)
        let reducer = BoardReducer()
        var fullEncode = try JSONValueEncoder().encode(state)
        var accepted = 0
        for revision in 1...400 as ClosedRange<UInt64> {
            let command = Self.randomCommand(for: state, using: &random)
            let footprint: Footprint
            do throws(Rejection) {
                footprint = try reducer.reduce(into: &state, action: command, meta: Meta(revision: revision, time: fixtureTime))
            } catch {
                continue
            }
            accepted += 1
            let before = mirror.json
            let previousFullEncode = fullEncode
            try mirror.update(to: state, footprint: footprint)
            fullEncode = try JSONValueEncoder().encode(state)
            #expect(mirror.json == fullEncode, "seed \(seed), revision \(revision), \(command)")
            #expect(JSONPatch.diff(from: before, to: mirror.json) == JSONPatch.diff(from: previousFullEncode, to: fullEncode))
            #expect(try JSONPatch.diff(from: before, to: mirror.json).applied(to: before) == fullEncode)
        }
        #expect(accepted > 200)
        #expect(mirror.fullEncodes == 1)
    }

    /// A board command touching todos most of the time, on existing ids
    /// mostly, sometimes an unknown one or another kind of change.
    private static func randomCommand(for state: BoardState, using random: inout SeededGenerator) -> SessionCommand<BoardAction> {
        let session = SessionInfo(id: "s-\(Int.random(in: 0..<5, using: &random))", name: "n")
        let existing = state.todos.randomElement(using: &random)?.id
        let id = Int.random(in: 0..<10, using: &random) == 0 ? "t-missing" : existing ?? "t-missing"
        let title = "title \(Int.random(in: 0..<1_000, using: &random))"
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<6: return .dispatch(.addTodo(title: title), from: session)
        case 6..<10: return .dispatch(.toggleTodo(id: id), from: session)
        case 10..<13: return .dispatch(.renameTodo(id: id, title: title), from: session)
        case 13..<16: return .dispatch(.removeTodo(id: id), from: session)
        case 16: return .dispatch(.clearCompleted, from: session)
        case 17: return .dispatch(.increment(counter: "c\(Int.random(in: 0..<3, using: &random))", by: 1), from: session)
        case 18: return .sessionJoined(session)
        default: return .sessionLeft(session)
        }
    }
}

/// An item whose id encodes as `key`: the mirror cannot find it by an `id` member.
private struct Label: Codable, Hashable, Identifiable, Sendable {
    var id: String
    var text: String

    enum CodingKeys: String, CodingKey {
        case id = "key"
        case text
    }
}

private struct LabelList: Codable, Hashable, Sendable {
    var items: [Label]
}

/// An app of ``Label``s, its `items` mapped to `/items`.
private enum LabelListApp: StateSyncApp {
    static var initialState: LabelList { LabelList(items: []) }
    static var reducer: any Reducer<LabelList, SessionCommand<BoardAction>> { Reduce { _, _, _ in } }
    static func jsonPointer(for keyPath: AnyKeyPath) -> JSONPointer? {
        keyPath == \LabelList.items ? JSONPointer(tokens: ["items"]) : nil
    }
}
