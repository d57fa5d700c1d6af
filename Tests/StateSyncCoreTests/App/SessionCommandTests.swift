import StateSyncCore
import Testing

@Suite("SessionCommand")
struct SessionCommandTests {
    private let alice = SessionInfo(id: "s-91", name: "alice")

    @Test("action is set for dispatch and system commands, session for the session's")
    func accessors() {
        #expect(SessionCommand.dispatch(CounterAction.increment(by: 1), from: alice).action == .increment(by: 1))
        #expect(SessionCommand.dispatch(CounterAction.increment(by: 1), from: alice).session == alice)
        #expect(SessionCommand.system(CounterAction.increment(by: 2)).action == .increment(by: 2))
        #expect(SessionCommand.system(CounterAction.increment(by: 2)).session == nil)
        #expect(SessionCommand<CounterAction>.sessionJoined(alice).action == nil)
        #expect(SessionCommand<CounterAction>.sessionLeft(alice).session == alice)
        #expect(SessionCommand<CounterAction>.serverStarted.session == nil)
    }

    @Test("an app without session data lifts its reducer with Scope and action")
    func lifting() async {
        let counter = Reduce<Int64, CounterAction> { count, action, _ in
            guard case .increment(let by) = action else { return }
            count += by
        }
        let lifted = Scope(state: \Int64.self, action: \SessionCommand<CounterAction>.action) { counter }
        let store = Store(initialState: 0, reducer: lifted)
        _ = await store.dispatch(.sessionJoined(alice))
        _ = await store.dispatch(.dispatch(.increment(by: 1), from: alice))
        _ = await store.dispatch(.system(.increment(by: 10)))
        #expect(store.state == 11)
        #expect(store.revision == 3)
    }
}
