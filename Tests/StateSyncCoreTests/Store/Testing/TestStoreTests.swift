import Foundation
import StateSyncCore
import Synchronization
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

/// Effects whose follow-ups are refused: `.add(5_000)` by the reducer (over
/// 1000), `.setLabel("locked")` by ``refuseLocked``.
private let rejectedFollowUps = Effects<AppState, AppAction> { action, _, _ in
    switch action {
    case .setLabel("overflow"):
        .run { send in await send(.add(5_000)) }
    case .setLabel("overflow, then add"):
        .run { send in
            await send(.add(5_000))
            await send(.add(1))
        }
    case .setLabel("lock"):
        .run { send in await send(.setLabel("locked")) }
    default:
        .none
    }
}

/// A middleware refusing the label `locked`.
private let refuseLocked = Validate<AppState, AppAction> { action, _, _ in
    if action == .setLabel("locked") { throw Rejection.forbidden("the label locked is reserved") }
}

/// The failure `body` throws, or `nil` (recorded as an issue) when it passes.
private func failure(
    of body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
) async -> TestStoreFailure? {
    do {
        try await body()
    } catch let failure as TestStoreFailure {
        return failure
    } catch {
        Issue.record("threw \(error), not a TestStoreFailure", sourceLocation: sourceLocation)
        return nil
    }
    Issue.record("passed, but a TestStoreFailure was expected", sourceLocation: sourceLocation)
    return nil
}

@Suite("TestStore: rejected actions from effects", .timeLimit(.minutes(1)))
struct TestStoreRejectedFollowUpTests {
    private func makeStore() -> TestStore<AppState, AppAction> {
        TestStore(initialState: AppState(), reducer: appReducer, middleware: [refuseLocked], effects: rejectedFollowUps)
    }

    @Test func finishFailsOnARejectedFollowUpNobodyReceived() async throws {
        let store = makeStore()
        try await store.send(.setLabel("overflow")) { $0.label = "overflow" }
        let report = await failure { try await store.finish() }?.description ?? ""
        #expect(report.contains("1 action(s) from effects were not received: add(5000) (rejected: invalid_action)"))
    }

    @Test func receiveOfARejectedFollowUpSaysItWasRejected() async throws {
        let store = makeStore()
        try await store.send(.setLabel("overflow")) { $0.label = "overflow" }
        let report = await failure { try await store.receive(.add(5_000)) { $0.count = 5_000 } }?.description ?? ""
        #expect(report.contains("expected to receive add(5000) accepted, but it was rejected"))
        #expect(report.contains("invalid_action: amount 5000 is over 1000"))
        #expect(store.state.count == 0)
    }

    @Test func receiveRejectedReturnsTheRejectionAndKeepsTheOrder() async throws {
        let store = makeStore()
        try await store.send(.setLabel("overflow, then add")) { $0.label = "overflow, then add" }
        let rejection = try await store.receiveRejected(.add(5_000))
        #expect(rejection == .invalidAction("amount 5000 is over 1000"))
        try await store.receive(.add(1)) { $0.count = 1 }
        try await store.finish()
    }

    @Test func aFollowUpAMiddlewareRejectsIsLoggedToo() async throws {
        let store = makeStore()
        try await store.send(.setLabel("lock")) { $0.label = "lock" }
        let rejection = try await store.receiveRejected(.setLabel("locked"))
        #expect(rejection == .forbidden("the label locked is reserved"))
        try await store.finish()
    }

    @Test func sendAfterAnUnreceivedRejectedFollowUpFails() async throws {
        let store = makeStore()
        try await store.send(.setLabel("overflow")) { $0.label = "overflow" }
        await store.store.effectsFinished()
        let report = await failure { try await store.send(.increment) { $0.count = 1 } }?.description ?? ""
        #expect(report.contains("were not received: add(5000) (rejected: invalid_action)"))
    }

    @Test func sendRejectedAfterAnUnreceivedRejectedFollowUpFails() async throws {
        let store = makeStore()
        try await store.send(.setLabel("overflow")) { $0.label = "overflow" }
        await store.store.effectsFinished()
        let report = await failure { _ = try await store.sendRejected(.add(2_000)) }?.description ?? ""
        #expect(report.contains("were not received: add(5000) (rejected: invalid_action)"))
    }

    @Test func receiveRejectedOfAnAcceptedActionFails() async throws {
        let store = makeStore()
        try await store.send(.setLabel("overflow, then add")) { $0.label = "overflow, then add" }
        try await store.receiveRejected(.add(5_000))
        let report = await failure { _ = try await store.receiveRejected(.add(1)) }?.description ?? ""
        #expect(report.contains("expected to receive add(1) rejected, but it was accepted at rev 2"))
    }

    @Test func receiveOfAnotherActionNamesTheRejectedOne() async throws {
        let store = makeStore()
        try await store.send(.setLabel("overflow, then add")) { $0.label = "overflow, then add" }
        let report = await failure { try await store.receive(.add(1)) { $0.count = 1 } }?.description ?? ""
        #expect(report.contains("expected to receive add(1), received add(5000) (rejected: invalid_action)"))
    }

    @Test func aRejectedSendIsNotReportedAgainAsUnreceived() async throws {
        let store = makeStore()
        let report = await failure { try await store.send(.add(5_000)) }?.description ?? ""
        #expect(report.contains("add(5000) was rejected: invalid_action"))
        try await store.finish()
    }
}
