import Foundation
import StateSyncCore
import Testing

@Suite("Store JSON Pointer observation", .timeLimit(.minutes(1)))
struct StorePointerObserveTests {
    @Test func typedStateIsObservedByPointer() async throws {
        let store = makeAppStore(AppState(todos: [Todo(id: "t1", title: "Milk")]))
        var title = try store.observe("/todos/0/title").makeAsyncIterator()
        var count = try store.observe("/count").makeAsyncIterator()
        #expect(try await title.next() == .string("Milk"))
        #expect(try await count.next() == .integer(0))
        store.send(.increment)
        store.send(.todo("t1", .rename("Oat milk")))
        #expect(try await title.next() == .string("Oat milk"))
        #expect(try await count.next() == .integer(1))
    }

    @Test func pointerCallbackSkipsUnrelatedChangesAndSeesNullWhereNothingIs() throws {
        let store = makeAppStore()
        let values = Collected<JSONValue>()
        let token = store.subscribe(try JSONPointer(parsing: "/editor/text")) { values.append($0) }
        store.send(.increment)
        store.send(.openEditor)
        store.send(.edit("hello"))
        #expect(values.all == [.null, .string(""), .string("hello")])
        token.cancel()
    }

    @Test func jsonValueStoreNeedsNoEncoding() async throws {
        let reducer = Reduce<JSONValue, String> { state, key, _ in
            state[key] = .integer((state[key]?.int64Value ?? 0) + 1)
        }
        let store = Store(initialState: ["a": 0, "b": 0] as JSONValue, reducer: reducer)
        let values = Collected<JSONValue>()
        let token = store.subscribe(try JSONPointer(parsing: "/b")) { values.append($0) }
        store.send("a")
        store.send("b")
        #expect(values.all == [.integer(0), .integer(1)])
        token.cancel()
    }

    @Test func stateThatCannotBeEncodedEndsPointerObservationsWithTheError() async throws {
        struct Reading: Encodable, Sendable { var value = 1.0 }
        let store = Store(initialState: Reading(), reducer: Reduce<Reading, Double> { state, value, _ in state.value = value })
        var iterator = try store.observe("/value").makeAsyncIterator()
        #expect(try await iterator.next() == .double(1))
        store.send(.nan)
        await #expect(throws: EncodingError.self) { try await iterator.next() }
    }

    @Test func malformedPointerTextThrows() {
        let store = makeAppStore()
        #expect(throws: JSONPointerError.self) { try store.observe("count") }
    }
}
