import Foundation
import StateSyncCore
import Testing

@Suite("Middleware")
struct MiddlewareTests {
    @Test func validateRejectsBeforeTheReducerRuns() {
        let anonymousRefused = Validate<AppState, AppAction> { _, _, meta in
            guard meta.clientID != nil else { throw Rejection.forbidden("anonymous") }
        }
        let store = makeAppStore(middleware: [anonymousRefused])
        #expect(store.send(.increment) == .rejected(.forbidden("anonymous")))
        #expect(store.revision == 0)
        #expect(store.send(.increment, clientID: "c").meta?.revision == 1)
    }

    @Test func onChangeSeesOldNewActionAndMeta() {
        let changes = Collected<StateChange<AppState, AppAction>>()
        let store = makeAppStore(middleware: [OnChange { changes.append($0) }])
        store.send(.add(4), clientID: "c-9")
        store.send(.add(9_999))
        let change = changes.all
        #expect(change.count == 1)
        #expect(change.first?.old.count == 0)
        #expect(change.first?.new.count == 4)
        #expect(change.first?.action == .add(4))
        #expect(change.first?.meta.clientID == "c-9")
    }

    @Test func actionLoggerWritesOneLinePerActionWithItsOutcome() throws {
        let lines = Collected<String>()
        let store = makeAppStore(middleware: [ActionLogger { lines.append($0) }])
        store.send(.increment, clientID: "c-1")
        store.send(.add(5_000))
        try #require(lines.all.count == 2)
        #expect(lines.all[0].hasPrefix("accepted increment -> rev 1 from c-1 in "))
        #expect(lines.all[0].hasSuffix(" µs"))
        #expect(lines.all[1].hasPrefix("rejected add(5000) at rev 2 from - in "))
        #expect(lines.all[1].hasSuffix(" µs: invalid_action: amount 5000 is over 1000"))
    }

    @Test func didProcessSeesEveryOutcomeAfterDidReduce() {
        let events = Collected<String>()
        let observer = Probe(name: "a", events: events)
        let reporter = Probe(name: "b", events: events, observesStateChanges: false)
        let store = makeAppStore(middleware: [observer, reporter])
        store.send(.add(2))
        store.send(.add(5_000))
        #expect(events.all == [
            "a will add(2)", "b will add(2)", "a did rev 1", "a processed accepted", "b processed accepted",
            "a will add(5000)", "b will add(5000)", "a processed rejected invalid_action", "b processed rejected invalid_action",
        ])
    }
}
