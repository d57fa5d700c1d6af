import Foundation
@testable import StateSyncCore
import Testing

@Suite("Reducer composition")
struct ReducerCompositionTests {
    private let meta = Meta(revision: 1, time: Date(timeIntervalSince1970: 0))

    @Test func combinedReducersRunInOrderAndUniteFootprints() throws {
        let reducer = CombineReducers {
            Reduce<[String], String> { log, action, _ in log.append("first \(action)") }
            Reduce<[String], String> { log, action, _ in log.append("second \(action)") }
        }
        var log: [String] = []
        let footprint = try reducer.reduce(into: &log, action: "a", meta: meta)
        #expect(log == ["first a", "second a"])
        #expect(footprint.changedKeys(in: \AppState.items) == nil)
    }

    @Test func scopeRunsTheChildOnItsKeyPathOnlyForItsActions() throws {
        let scope = Scope(state: \AppState.label, action: { (action: AppAction) -> String? in
            if case .setLabel(let label) = action { label } else { nil }
        }) {
            Reduce<String, String> { label, new, _ in label = new.uppercased() }
        }
        var state = AppState()
        let ignored = try scope.reduce(into: &state, action: .increment, meta: meta)
        #expect(ignored.isNothing)
        _ = try scope.reduce(into: &state, action: .setLabel("hi"), meta: meta)
        #expect(state.label == "HI")
    }

    @Test func forEachElementReportsTheElementItChanged() throws {
        var state = AppState(items: [1: 1, 2: 2])
        let footprint = try appReducer.reduce(into: &state, action: .item(2, .add(3)), meta: meta)
        #expect(state.items == [1: 1, 2: 5])
        #expect(footprint.changedKeys(in: \AppState.items) == nil, "the root Reduce reports everything")
        let forEach = ForEachElement(state: \AppState.items, action: \AppAction.itemAction) {
            Reduce<Int, ItemAction> { value, _, _ in value += 1 }
        }
        let precise = try forEach.reduce(into: &state, action: .item(1, .add(1)), meta: meta)
        #expect(precise.changedKeys(in: \AppState.items) == [AnyHashable(1)])
        #expect(precise.changedKeys(in: \AppState.todos) == nil)
    }

    @Test func forEachElementRejectsAMissingKey() {
        var state = AppState()
        #expect(throws: Rejection.notFound("no element with key 7 in \\AppState.items")) {
            try appReducer.reduce(into: &state, action: .item(7, .add(1)), meta: meta)
        }
    }

    @Test func ifLetRunsOnlyWhileTheStateExists() throws {
        var state = AppState()
        #expect(throws: Rejection.self) { try appReducer.reduce(into: &state, action: .edit("x"), meta: meta) }
        state.editor = Editor()
        _ = try appReducer.reduce(into: &state, action: .edit("x"), meta: meta)
        #expect(state.editor?.text == "x")
    }

    @Test func footprintsMoveUnderTheScopeKeyPath() {
        let inner = Footprint.element(of: \Board.items, key: 3)
        let outer = inner.prefixed(by: \Wrapper.board)
        #expect(outer.changedKeys(in: \Wrapper.board.items) == [AnyHashable(3)])
        #expect(Footprint.everything.prefixed(by: \Wrapper.board).changedKeys(in: \Wrapper.board.items) == nil)
        #expect(Footprint.nothing.union(inner).changedKeys(in: \Board.items) == [AnyHashable(3)])
        #expect(inner.union(.element(of: \Board.items, key: 4)).changedKeys(in: \Board.items) == [AnyHashable(3), AnyHashable(4)])
    }

    private struct Board { var items: [Int: Int] = [:] }
    private struct Wrapper { var board = Board() }
}
