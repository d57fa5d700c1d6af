import StateSyncJournal
import Synchronization
import Foundation
import StateSyncCore
@testable import StateSyncServer
import Testing

@Suite struct AuthoritativeStateTests {
    private static func authority(
        middleware: [any Middleware<JSONValue, SessionCommand<KeyValueApp.Action>>] = []
    ) throws -> AuthoritativeState<KeyValueApp> {
        let recovered = RecoveredState<KeyValueApp>(
            state: KeyValueApp.initialState, mirror: try StateMirror<KeyValueApp>(KeyValueApp.initialState),
            revision: 41, snapshotRevision: 0, epoch: "e-test")
        return AuthoritativeState(
            recovered: recovered,
            pipeline: ActionPipeline(reducer: KeyValueApp.reducer, middleware: middleware, effects: KeyValueApp.effects),
            clock: { fixtureTime })
    }

    private static let alice = SessionInfo(id: "s-1", name: "alice")

    @Test func anAcceptedCommandTakesTheNextRevisionAndIsJournaledInTheOneCodec() throws {
        var authority = try Self.authority()
        let command = SessionCommand<KeyValueApp.Action>.dispatch(.put(key: "k", value: 1), from: Self.alice)
        guard case .accepted(let accepted) = authority.apply(command, clientID: "c-1", actionID: "a1") else {
            Issue.record("the put was rejected")
            return
        }
        #expect(accepted.entry.meta == Meta(revision: 42, clientID: "c-1", time: fixtureTime))
        #expect(accepted.entry.actionID == "a1")
        #expect(accepted.entry.action == SessionCommandCoding.encode(command))
        #expect(accepted.unencodable == nil)
        #expect(authority.revision == 42)
        #expect(authority.mirror.json == ["k": 1])
    }

    @Test func aMiddlewareRejectionLeavesStateAndRevisionAlone() throws {
        let readOnly = Validate<JSONValue, SessionCommand<KeyValueApp.Action>> { command, _, _ in
            if case .dispatch(.put(key: "locked", _), _) = command { throw Rejection(code: "locked", message: "key locked is read-only") }
        }
        var authority = try Self.authority(middleware: [readOnly])
        let outcome = authority.apply(.dispatch(.put(key: "locked", value: 1), from: Self.alice), clientID: nil, actionID: "a1")
        guard case .rejected(let rejection) = outcome else {
            Issue.record("the middleware did not reject")
            return
        }
        #expect(rejection == Rejection(code: "locked", message: "key locked is read-only"))
        #expect(authority.revision == 41)
        #expect(authority.mirror.json == KeyValueApp.initialState)
    }

    @Test func theAppsEffectIsReturnedNotStarted() async throws {
        var authority = try Self.authority()
        let before = KeyValueApp.effectRuns(of: "ask-returned")
        guard case .accepted(let accepted) = authority.apply(.dispatch(.put(key: "ask-returned", value: 1), from: Self.alice), clientID: nil, actionID: nil) else {
            Issue.record("the put was rejected")
            return
        }
        let runner = EffectRunner<SessionCommand<KeyValueApp.Action>>()
        let sent = SentCommands()
        runner.start(accepted.effect) { sent.append($0) }
        await runner.finished()
        #expect(KeyValueApp.effectRuns(of: "ask-returned") > before)
        guard case .system(.put(key: "answer-returned", _))? = sent.commands.first else {
            Issue.record("the effect sent \(sent.commands)")
            return
        }
    }
}
