import Foundation
import StateSyncCore
import Testing

@Suite("Store", .timeLimit(.minutes(1)))
struct StoreTests {
    @Test func acceptedActionGetsNextRevisionClientAndClockTime() {
        let store = makeAppStore()
        let status = store.send(.increment, clientID: "c-1")
        #expect(status == .accepted(Meta(revision: 1, clientID: "c-1", time: Date(timeIntervalSince1970: 1_000))))
        #expect(store.state.count == 1)
        #expect(store.revision == 1)
    }

    @Test func revisionStartsAtTheGivenRevision() {
        let store = Store(initialState: AppState(), revision: 41, reducer: appReducer)
        #expect(store.send(.increment).meta?.revision == 42)
    }

    @Test func reducerReadsTimeFromMetaAndReplayTimeOverridesTheClock() {
        let store = makeAppStore()
        store.send(.stampTime)
        #expect(store.state.lastTime == Date(timeIntervalSince1970: 1_000))
        store.send(.stampTime, time: Date(timeIntervalSince1970: 5))
        #expect(store.state.lastTime == Date(timeIntervalSince1970: 5))
    }

    @Test(arguments: [
        (AppAction.mutateThenReject, "refused"),
        (AppAction.item(1, .reject), "item_refused"),
        (AppAction.item(99, .add(1)), "not_found"),
        (AppAction.add(5_000), "invalid_action"),
        (AppAction.edit("x"), "not_found"),
    ])
    func rejectionLeavesStateAndRevisionUntouched(action: AppAction, code: String) {
        var initial = AppState(count: 3, label: "start")
        initial.items = [1: 10]
        let store = makeAppStore(initial)
        let status = store.send(action)
        guard case .rejected(let rejection) = status else {
            Issue.record("expected a rejection, got \(status)")
            return
        }
        #expect(rejection.code == code)
        #expect(store.state == initial)
        #expect(store.revision == 0)
    }

    @Test func asyncDispatchReturnsTheOutcome() async throws {
        let store = makeAppStore()
        let meta = try await store.dispatch(.add(2)).get()
        #expect(meta.revision == 1)
        let rejected = await store.dispatch(.add(2_000))
        #expect(throws: Rejection.self) { try rejected.get() }
        #expect(store.state.count == 2)
    }

    @Test func dispatchAfterShutdownIsRejected() async {
        let store = makeAppStore()
        await store.shutdown()
        #expect(store.send(.increment) == .rejected(Rejection(code: "shut_down", message: "the store has been shut down")))
        #expect(store.state.count == 0)
    }
}
