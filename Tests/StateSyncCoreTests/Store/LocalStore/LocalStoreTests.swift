import StateSyncCore
import Testing

@Suite("LocalStore", .timeLimit(.minutes(1)))
struct LocalStoreTests {
    private struct Panel: Equatable, Sendable {
        var isOpen = false
        var filter = ""
    }

    @Test func updatesAreObservedLikeStoreActions() async {
        let store = LocalStore(initialState: Panel())
        var isOpen = store.observe(\.isOpen).makeAsyncIterator()
        #expect(await isOpen.next() == false)
        store.performStateUpdate { $0.filter = "milk" }
        #expect(store.performStateUpdate { $0.isOpen = true }.meta?.revision == 2)
        #expect(await isOpen.next() == true)
        #expect(store.state == Panel(isOpen: true, filter: "milk"))
    }

    @Test func updateFromAnObserverRunsRightAfter() {
        let store = LocalStore(initialState: Panel())
        let filters = Collected<String>()
        let token = store.subscribe(\.isOpen) { [weak store] open in
            if open { store?.performStateUpdate { $0.filter = "opened" } }
        }
        let filterToken = store.subscribe(\.filter) { filters.append($0) }
        store.performStateUpdate { $0.isOpen = true }
        #expect(filters.all == ["", "opened"])
        token.cancel()
        filterToken.cancel()
    }
}
