import Foundation
import StateSyncCore
import Testing

/// Effects of the test app, chosen by label.
let testEffects = Effects<AppState, AppAction> { action, _, _ in
    switch action {
    case .setLabel("count"):
        return .sequence(AsyncStream { continuation in
            for amount in 1...3 { continuation.yield(AppAction.add(amount)) }
            continuation.finish()
        })
    case .setLabel("forever"):
        return .run(id: EffectID("ticker"), cancelInFlight: true) { send in
            while !Task.isCancelled {
                await send(.increment)
                do {
                    try await Task.sleep(for: .milliseconds(2))
                } catch {
                    return
                }
            }
        }
    case .setLabel("stop"):
        return .cancel(id: EffectID("ticker"))
    default:
        return .none
    }
}

@Suite("Effects", .timeLimit(.minutes(1)))
struct EffectTests {
    @Test func followUpActionsAreFedBackInOrder() async {
        let actions = Collected<AppAction>()
        let store = makeAppStore(middleware: [OnChange { actions.append($0.action) }], effects: testEffects)
        store.send(.setLabel("count"))
        await store.effectsFinished()
        #expect(actions.all == [.setLabel("count"), .add(1), .add(2), .add(3)])
        #expect(store.state.count == 6)
        #expect(store.runningEffectCount == 0)
    }

    @Test func effectIsCancelledByID() async {
        let store = makeAppStore(effects: testEffects)
        let counts = store.observe(\.count)
        store.send(.setLabel("forever"))
        for await count in counts where count >= 3 { break }
        #expect(store.runningEffectCount == 1)
        store.send(.setLabel("stop"))
        await store.effectsFinished()
        let stopped = store.state.count
        store.send(.setLabel("idle"))
        #expect(store.state.count == stopped)
        #expect(store.runningEffectCount == 0)
    }

    @Test func cancelInFlightReplacesTheRunningEffect() async {
        let store = makeAppStore(effects: testEffects)
        store.send(.setLabel("forever"))
        store.send(.setLabel("forever"))
        #expect(store.runningEffectCount == 1)
        store.cancelEffects(id: EffectID("ticker"))
        await store.effectsFinished()
    }

    @Test func shutdownCancelsEveryEffect() async {
        let store = makeAppStore(effects: testEffects)
        store.send(.setLabel("forever"))
        await store.shutdown()
        #expect(store.runningEffectCount == 0)
        let count = store.state.count
        #expect(store.send(.setLabel("forever")).meta == nil)
        #expect(store.state.count == count)
    }

    @Test func failingSequenceEndsWithTheActionItsCatchMakes() async {
        struct Broken: Error {}
        let effects = Effects<AppState, AppAction> { action, _, _ in
            guard action == .increment else { return .none }
            let (actions, continuation) = AsyncThrowingStream.makeStream(of: AppAction.self)
            continuation.yield(.add(5))
            continuation.finish(throwing: Broken())
            return .sequence(actions) { error in .setLabel("failed: \(error)") }
        }
        let store = makeAppStore(effects: effects)
        store.send(.increment)
        await store.effectsFinished()
        #expect(store.state.count == 6)
        #expect(store.state.label == "failed: Broken()")
    }

    @Test func rejectedActionsStartNoEffect() {
        let effects = Effects<AppState, AppAction> { _, _, _ in
            .run { _ in Issue.record("an effect started for a rejected action") }
        }
        let store = makeAppStore(effects: effects)
        store.send(.mutateThenReject)
        #expect(store.runningEffectCount == 0)
    }
}
