import Foundation
import StateSyncCore
import Testing

@Suite("ActionPipeline")
struct ActionPipelineTests {
    private let meta = Meta(revision: 1, clientID: "c-1", time: Date(timeIntervalSince1970: 1_000))

    @Test("middleware run in order around the reducer; the effect is returned, not started")
    func acceptedOrder() throws {
        let events = Collected<String>()
        let pipeline = ActionPipeline(
            reducer: appReducer,
            middleware: [Probe(name: "a", events: events), Probe(name: "b", events: events)],
            effects: Effects { _, state, _ in
                events.append("effect asked at count \(state.count)")
                return .run { _ in events.append("effect ran") }
            }
        )
        var state = AppState()
        guard case .accepted = pipeline.process(.add(3), state: &state, meta: meta) else {
            Issue.record("add(3) was rejected")
            return
        }
        #expect(state.count == 3)
        #expect(events.all == [
            "a will add(3)", "b will add(3)", "a did rev 1", "b did rev 1",
            "a processed accepted", "b processed accepted", "effect asked at count 3",
        ])
    }

    @Test("a middleware's rejection skips the reducer, later middleware and effects, and reaches every didProcess")
    func rejectedByMiddleware() {
        let events = Collected<String>()
        let pipeline = ActionPipeline(
            reducer: Reduce<AppState, AppAction> { _, _, _ in events.append("reducer") },
            middleware: [Probe(name: "a", events: events, rejects: [.increment]), Probe(name: "b", events: events)],
            effects: Effects { _, _, _ in
                events.append("effect asked")
                return .none
            }
        )
        var state = AppState(count: 7)
        guard case .rejected(let rejection) = pipeline.process(.increment, state: &state, meta: meta) else {
            Issue.record("increment was accepted")
            return
        }
        #expect(rejection.code == "refused_by_a")
        #expect(state == AppState(count: 7))
        #expect(events.all == ["a will increment", "a processed rejected refused_by_a", "b processed rejected refused_by_a"])
    }

    @Test("a reducer's rejection leaves the state unchanged and is reported with the action's meta")
    func rejectedByReducer() {
        let reports = Collected<ActionReport<AppAction>>()
        let pipeline = ActionPipeline(reducer: appReducer, middleware: [Reporter(reports: reports)])
        var state = AppState(count: 2, label: "before")
        guard case .rejected(let rejection) = pipeline.process(.mutateThenReject, state: &state, meta: meta) else {
            Issue.record("mutateThenReject was accepted")
            return
        }
        #expect(rejection == Rejection(code: "refused", message: "after mutating"))
        #expect(state == AppState(count: 2, label: "before"))
        #expect(reports.all.map(\.outcome) == [.rejected(rejection)])
        #expect(reports.all.first?.meta == meta)
        #expect(reports.all.first?.action == .mutateThenReject)
    }

    @Test("middleware that observe no state changes get no didReduce, and the old state is not kept")
    func noStateObservers() {
        let events = Collected<String>()
        let pipeline = ActionPipeline(
            reducer: appReducer,
            middleware: [Probe(name: "a", events: events, observesStateChanges: false)]
        )
        #expect(!pipeline.keepsOldState)
        var state = AppState()
        _ = pipeline.process(.increment, state: &state, meta: meta)
        #expect(events.all == ["a will increment", "a processed accepted"])
        #expect(ActionPipeline(reducer: appReducer, middleware: [Probe(name: "b", events: events)]).keepsOldState)
    }

    @Test("without middleware the clock is not read and the duration is zero")
    func noMiddlewareNoClock() {
        let pipeline = ActionPipeline(reducer: appReducer)
        #expect(pipeline.startClock() == nil)
        #expect(pipeline.elapsed(since: nil) == .zero)
        var state = AppState()
        guard case .accepted = pipeline.process(.increment, state: &state, meta: meta) else {
            Issue.record("increment was rejected")
            return
        }
        #expect(state.count == 1)
    }

    @Test("the returned effect runs only when the caller starts it")
    func effectRunsWhenStarted() async {
        let sent = Collected<AppAction>()
        let pipeline = ActionPipeline(
            reducer: appReducer,
            effects: Effects { action, _, _ in
                action == .increment ? .run { send in await send(.add(10)) } : .none
            }
        )
        var state = AppState()
        guard case .accepted(_, let effect) = pipeline.process(.increment, state: &state, meta: meta) else {
            Issue.record("increment was rejected")
            return
        }
        let runner = EffectRunner<AppAction>()
        await runner.finished()
        #expect(sent.all.isEmpty)
        runner.start(effect) { sent.append($0) }
        await runner.finished()
        #expect(sent.all == [.add(10)])
    }
}

/// Middleware keeping every report.
private struct Reporter: Middleware {
    typealias State = AppState
    typealias Action = AppAction

    let reports: Collected<ActionReport<AppAction>>
    var observesStateChanges: Bool { false }

    func didProcess(_ report: ActionReport<AppAction>) {
        reports.append(report)
    }
}
