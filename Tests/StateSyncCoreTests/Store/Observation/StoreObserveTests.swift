import Foundation
import StateSyncCore
import Testing

@Suite("Store key-path and element observation", .timeLimit(.minutes(1)))
struct StoreObserveTests {
    @Test func callbackGetsCurrentValueThenOnlyDistinctChangesOfItsSlice() {
        let store = makeAppStore()
        let counts = Collected<Int>()
        let token = store.subscribe(\.count) { counts.append($0) }
        store.send(.setLabel("unrelated"))
        store.send(.add(0))
        store.send(.increment)
        store.send(.increment)
        #expect(counts.all == [0, 1, 2])
        token.cancel()
    }

    @Test func observersOfTheSameKeyPathAllReceive() {
        let store = makeAppStore()
        let first = Collected<String>()
        let second = Collected<String>()
        let tokens = [store.subscribe(\.label) { first.append($0) }, store.subscribe(\.label) { second.append($0) }]
        store.send(.setLabel("a"))
        #expect(first.all == ["", "a"])
        #expect(second.all == ["", "a"])
        tokens.forEach { $0.cancel() }
    }

    @Test func cancelledOrReleasedTokenStopsCallbacks() {
        let store = makeAppStore()
        let counts = Collected<Int>()
        let token = store.subscribe(\.count) { counts.append($0) }
        token.cancel()
        store.send(.increment)
        do {
            _ = store.subscribe(\.count) { counts.append($0 * 100) }
        }
        store.send(.increment)
        #expect(counts.all == [0, 100])
    }

    @Test func sequenceYieldsCurrentValueThenChanges() async {
        let store = makeAppStore()
        var iterator = store.observe(\.count).makeAsyncIterator()
        #expect(await iterator.next() == 0)
        store.send(.setLabel("unrelated"))
        store.send(.increment)
        #expect(await iterator.next() == 1)
    }

    @Test func slowConsumerGetsTheLatestValue() async {
        let store = makeAppStore()
        let observation = store.observe(\.count)
        for _ in 0..<5 { store.send(.increment) }
        var iterator = observation.makeAsyncIterator()
        #expect(await iterator.next() == 5)
    }

    @Test func cancellingTheIteratingTaskEndsTheSequence() async {
        let store = makeAppStore()
        let started = AsyncStream.makeStream(of: Int.self)
        let consumer = Task {
            var received = 0
            for await count in store.observe(\.count) {
                received += 1
                started.continuation.yield(count)
            }
            return received
        }
        var firstValues = started.stream.makeAsyncIterator()
        #expect(await firstValues.next() == 0)
        consumer.cancel()
        #expect(await consumer.value == 1)
    }

    @Test func sequenceEndsWhenTheStoreGoesAway() async {
        var store: Store<AppState, AppAction>? = makeAppStore()
        let observation = store!.observe(\.count)
        var iterator = observation.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        store = nil
        #expect(await iterator.next() == nil)
    }

    @Test func sequenceEndsAtShutdown() async {
        let store = makeAppStore()
        var iterator = store.observe(\.count).makeAsyncIterator()
        #expect(await iterator.next() == 0)
        await store.shutdown()
        #expect(await iterator.next() == nil)
    }

    @Test func elementObserverSeesOnlyItsElement() {
        var initial = AppState()
        initial.items = [1: 10, 2: 20]
        let store = makeAppStore(initial)
        let first = Collected<Int?>()
        let absent = Collected<Int?>()
        let tokens = [
            store.subscribe(\.items, id: 1) { first.append($0) },
            store.subscribe(\.items, id: 3) { absent.append($0) },
        ]
        store.send(.item(2, .add(1)))
        store.send(.item(1, .add(5)))
        store.send(.increment)
        #expect(first.all == [10, 15])
        #expect(absent.all == [nil])
        tokens.forEach { $0.cancel() }
    }

    @Test func elementObserverOfAnIdentifiedArray() async {
        var initial = AppState()
        initial.todos = [Todo(id: "a", title: "A"), Todo(id: "b", title: "B")]
        let store = makeAppStore(initial)
        var iterator = store.observe(\.todos, id: "b").makeAsyncIterator()
        #expect(await iterator.next() == Todo(id: "b", title: "B"))
        store.send(.todo("a", .toggle))
        store.send(.todo("b", .rename("Bee")))
        #expect(await iterator.next() == Todo(id: "b", title: "Bee"))
    }

    @Test func elementObserverNoticesChangesWithoutAPreciseFootprint() {
        let store = LocalStore(initialState: AppState(items: [1: 1, 2: 2]))
        let values = Collected<Int?>()
        let token = store.subscribe(\.items, id: 2) { values.append($0) }
        store.performStateUpdate { $0.items[1] = 5 }
        store.performStateUpdate { $0.items[2] = nil }
        store.performStateUpdate { $0.items[2] = 7 }
        #expect(values.all == [2, nil, 7])
        token.cancel()
    }
}
