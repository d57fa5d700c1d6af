import Foundation
import StateSyncCore
import Testing

@Suite("TestStore", .timeLimit(.minutes(1)))
struct TestStoreTests {
    @Test func passesWhenEveryChangeIsAsserted() async throws {
        let store = TestStore(initialState: AppState(), reducer: appReducer)
        try await store.send(.increment) { $0.count = 1 }
        try await store.send(.add(0))
        let rejection = try await store.sendRejected(.add(5_000))
        #expect(rejection.code == "invalid_action")
        try await store.finish()
    }

    @Test func unassertedChangeThrowsWithAReadableDiff() async throws {
        let store = TestStore(initialState: AppState(), reducer: appReducer)
        do {
            try await store.send(.setLabel("new")) { $0.count = 1 }
            Issue.record("an unasserted change passed")
        } catch let failure as TestStoreFailure {
            let report = failure.description
            #expect(report.contains("- /count 1"))
            #expect(report.contains("+ /count 0"))
            #expect(report.contains("- /label \"\""))
            #expect(report.contains("+ /label \"new\""))
        }
    }

    @Test func effectActionsMustBeReceived() async throws {
        let store = TestStore(initialState: AppState(), reducer: appReducer, effects: testEffects)
        try await store.send(.setLabel("count")) { $0.label = "count" }
        try await store.receive(.add(1)) { $0.count = 1 }
        try await store.receive(.add(2)) { $0.count = 3 }
        await #expect(throws: TestStoreFailure.self) { try await store.receive(.add(4)) { $0.count = 7 } }
        try await store.finish()
    }

    @Test func unreceivedActionsFailTheNextSend() async throws {
        let store = TestStore(initialState: AppState(), reducer: appReducer, effects: testEffects)
        try await store.send(.setLabel("count")) { $0.label = "count" }
        await store.store.effectsFinished()
        await #expect(throws: TestStoreFailure.self) { try await store.send(.increment) { $0.count = 7 } }
    }

    @Test func runningEffectsFailTheEnd() async throws {
        let store = TestStore(initialState: AppState(), reducer: appReducer, effects: testEffects)
        try await store.send(.setLabel("forever")) { $0.label = "forever" }
        #expect(throws: TestStoreFailure.self) { try store.assertNoPendingEffects() }
        await #expect(throws: TestStoreFailure.self) { try await store.finish(timeout: .milliseconds(50)) }
        #expect(store.store.runningEffectCount == 0)
    }
}
