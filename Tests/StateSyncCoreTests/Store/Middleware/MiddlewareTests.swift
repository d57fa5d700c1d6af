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

    @Test func actionLoggerWritesOneLineBeforeAndOneAfter() {
        let lines = Collected<String>()
        let store = makeAppStore(middleware: [ActionLogger { lines.append($0) }])
        store.send(.increment, clientID: "c-1")
        #expect(lines.all == ["action increment at rev 1 from c-1", "accepted increment -> rev 1"])
    }
}
