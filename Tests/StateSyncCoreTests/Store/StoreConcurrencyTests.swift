import Foundation
import StateSyncCore
import Testing

@Suite("Store concurrency", .timeLimit(.minutes(1)))
struct StoreConcurrencyTests {
    @Test func manyTasksDispatchingAtOnceLoseNothingInOneTotalOrder() async {
        let revisions = Collected<UInt64>()
        let store = makeAppStore(middleware: [OnChange { revisions.append($0.meta.revision) }])
        let tasks = 8
        let perTask = 500
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<tasks {
                group.addTask {
                    for _ in 0..<perTask {
                        // Half the tasks use the synchronous send, half the async dispatch.
                        if index.isMultiple(of: 2) {
                            store.send(.increment)
                        } else {
                            _ = await store.dispatch(.increment)
                        }
                    }
                }
            }
        }
        await store.effectsFinished()
        let total = tasks * perTask
        #expect(store.state.count == total)
        #expect(store.revision == UInt64(total))
        #expect(revisions.all == Array(1...UInt64(total)))
    }

    @Test func subscribingAndCancellingWhileOthersDispatchLosesNoAction() async {
        let store = makeAppStore(AppState(items: [1: 0]))
        let lastSeen = Collected<Int>()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<300 { store.send(.item(1, .add(1))) }
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<100 {
                        let token = store.subscribe(\.items, id: 1) { _ in }
                        token.cancel()
                    }
                }
            }
        }
        let token = store.subscribe(\.items, id: 1) { lastSeen.append($0 ?? -1) }
        #expect(store.state.items[1] == 1_200)
        #expect(lastSeen.all == [1_200])
        token.cancel()
    }

    @Test func dispatchFromAnObserverCallbackIsQueuedAndRunsNext() {
        let store = makeAppStore()
        let statuses = Collected<DispatchStatus>()
        let seen = Collected<Int>()
        let token = store.subscribe(\.count) { [weak store] count in
            seen.append(count)
            if count == 1, let store { statuses.append(store.send(.add(10))) }
        }
        let outer = store.send(.increment)
        #expect(outer.meta?.revision == 1)
        #expect(statuses.all == [.queued])
        #expect(store.state.count == 11)
        #expect(seen.all == [0, 1, 11])
        token.cancel()
    }

    @Test func dispatchFromMiddlewareIsQueuedAfterTheCurrentAction() {
        let order = Collected<String>()
        let box = Collected<Store<AppState, AppAction>>()
        let middleware = OnChange<AppState, AppAction> { change in
            order.append("\(change.meta.revision):\(change.action)")
            if change.action == .setLabel("go") { box.all.first?.send(.increment) }
        }
        let store = makeAppStore(middleware: [middleware])
        box.append(store)
        store.send(.setLabel("go"))
        #expect(order.all == ["1:setLabel(\"go\")", "2:increment"])
        #expect(store.state.count == 1)
    }
}
