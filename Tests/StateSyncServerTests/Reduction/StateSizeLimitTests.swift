import BoardApp
import StateSyncCore
import StateSyncProtocol
import Testing
@testable import StateSyncServer

/// The state's size limit: an estimate kept from each change, and a
/// rejection (`state_too_large`) that leaves the state as it was.
@Suite struct StateSizeLimitTests {
    private static let alice = SessionInfo(id: "s-a", name: "alice")

    private static func authority(maxStateBytes: Int) throws -> AuthoritativeState<Board> {
        let state = BoardState()
        let recovered = RecoveredState<Board>(
            state: state, mirror: try StateMirror<Board>(state), revision: 0, snapshotRevision: 0, epoch: "e-test")
        return AuthoritativeState(
            recovered: recovered, pipeline: ActionPipeline(reducer: Board.reducer, effects: Board.effects),
            clock: { fixtureTime }, maxStateBytes: maxStateBytes)
    }

    @Test func theEstimateFollowsEveryChangeExactly() throws {
        var authority = try Self.authority(maxStateBytes: .max)
        let bob = SessionInfo(id: "s-b", name: "bob")
        let commands: [SessionCommand<BoardAction>] = [
            .sessionJoined(Self.alice), .sessionJoined(bob),
            .dispatch(.addTodo(title: "Milk"), from: Self.alice), .dispatch(.addTodo(title: "Eggs"), from: bob),
            .dispatch(.increment(counter: "hits", by: 2), from: Self.alice),
            .dispatch(.increment(counter: "hits", by: 2_000), from: Self.alice),
            .dispatch(.resetCounter(counter: "misses"), from: bob), .dispatch(.removeTodo(id: "t3"), from: bob),
            .dispatch(.postMessage(text: "hi"), from: bob), .sessionLeft(bob), .sessionLeft(Self.alice), .serverStarted,
        ]
        for command in commands {
            _ = authority.apply(command, clientID: nil, actionID: nil)
            #expect(authority.mirror.estimatedBytes == JSONSerializer().serialize(authority.mirror.json).count, "after \(command)")
        }
    }

    @Test func anActionPastTheLimitIsRejectedAndChangesNothing() throws {
        var authority = try Self.authority(maxStateBytes: 2_000)
        let title = String(repeating: "t", count: 200)
        var rejection: Rejection?
        for _ in 0..<20 {
            let before = (authority.state, authority.mirror.json, authority.revision)
            switch authority.apply(.dispatch(.addTodo(title: title), from: Self.alice), clientID: nil, actionID: nil) {
            case .accepted:
                #expect(authority.mirror.estimatedBytes <= 2_000)
            case .rejected(let refused):
                rejection = refused
                #expect(authority.state == before.0)
                #expect(authority.mirror.json == before.1)
                #expect(authority.revision == before.2)
            }
            if rejection != nil { break }
        }
        #expect(rejection?.code == "state_too_large")
        #expect(authority.state.todos.count == 7, "seven todos of 200 characters and some 60 bytes of fields fit in 2,000 bytes")
        // What does not grow the state is still taken.
        guard case .accepted = authority.apply(.dispatch(.removeTodo(id: "t1"), from: Self.alice), clientID: nil, actionID: nil) else {
            Issue.record("removing a todo was rejected")
            return
        }
        #expect(authority.mirror.estimatedBytes == JSONSerializer().serialize(authority.mirror.json).count)
    }

    @Test func farBelowTheLimitTheStateIsRestoredFromTheMirror() throws {
        // One action growing the state by more than an eighth of the limit,
        // from far below it: the old state was not kept, so it is decoded
        // from the mirror, which the refused change never touched.
        let recovered = RecoveredState<KeyValueApp>(
            state: ["k": 1], mirror: try StateMirror<KeyValueApp>(["k": 1]), revision: 5, snapshotRevision: 0, epoch: "e-test")
        var authority = AuthoritativeState(
            recovered: recovered, pipeline: ActionPipeline(reducer: KeyValueApp.reducer, effects: KeyValueApp.effects),
            clock: { fixtureTime }, maxStateBytes: 50_000)
        let huge = JSONValue.string(String(repeating: "h", count: 60_000))
        guard case .rejected(let rejection) = authority.apply(
            .dispatch(.put(key: "big", value: huge), from: Self.alice), clientID: nil, actionID: nil)
        else {
            Issue.record("a put past the limit was accepted")
            return
        }
        #expect(rejection.code == "state_too_large")
        #expect(authority.state == ["k": 1])
        #expect(authority.mirror.json == ["k": 1])
        #expect(authority.revision == 5)
        guard case .accepted = authority.apply(.dispatch(.put(key: "small", value: 2), from: Self.alice), clientID: nil, actionID: nil) else {
            Issue.record("a small put was rejected")
            return
        }
        #expect(authority.state == ["k": 1, "small": 2])
    }
}
