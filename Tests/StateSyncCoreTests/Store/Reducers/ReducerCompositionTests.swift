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

    @Test func sequenceRestoresTheFirstReducersChangesWhenTheSecondRejects() {
        let reducer = CombineReducers {
            Reduce<AppState, AppAction> { state, _, _ in state.count += 1 }
            Reduce<AppState, AppAction> { state, action, _ in
                state.label = "second"
                if action == .mutateThenReject { throw Rejection.invalidAction("refused") }
            }
        }
        var state = AppState(count: 1, items: [1: 1])
        #expect(throws: Rejection.invalidAction("refused")) {
            try reducer.reduce(into: &state, action: .mutateThenReject, meta: meta)
        }
        #expect(state == AppState(count: 1, items: [1: 1]))
    }

    @Test func sequenceSkipsReducersThatDoNotHandleTheAction() throws {
        let counted = Reduce<AppState, AppAction> { state, _, _ in state.count += 1 }
        let reducer = CombineReducers {
            Scope(state: \AppState.label, action: \AppAction.editText) { Reduce<String, String> { label, text, _ in label = text } }
            counted
        }
        #expect(reducer.handles(.increment))
        var state = AppState()
        _ = try reducer.reduce(into: &state, action: .edit("x"), meta: meta)
        #expect(state.label == "x")
        #expect(state.count == 1)
        let scopeOnly = CombineReducers {
            Scope(state: \AppState.label, action: \AppAction.editText) { Reduce<String, String> { label, text, _ in label = text } }
        }
        #expect(!scopeOnly.handles(.increment))
        #expect(try scopeOnly.reduce(into: &state, action: .increment, meta: meta).isNothing)
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

extension Footprint {
    /// The keys `forEachChangedKey` reports, or `nil` when it is imprecise.
    fileprivate func changedKeys(in collection: AnyKeyPath) -> [AnyHashable]? {
        var keys: [AnyHashable] = []
        return forEachChangedKey(in: collection) { keys.append($0) } ? keys : nil
    }
}
