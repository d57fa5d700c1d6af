import BoardApp
import Foundation
import StateSyncCore
import StateSyncProtocol
import StateSyncServer
import StateSyncTestSupport
import Synchronization
import Testing

@testable import StateSyncClient

/// The optimistic mirror against a real server whose messages take
/// `injectedLatency` to arrive: what shows before the answer, what after,
/// and that observers never see an action twice or a state in between.
@Suite(.timeLimit(.minutes(1)))
struct OptimisticMirrorEndToEndTests {
    static func slowServer(_ latency: Duration) -> StateSyncServerConfiguration {
        var configuration = TestServer.configuration
        configuration.injectedLatency = latency
        return configuration
    }

    @Test func anOwnActionShowsBeforeTheServerAnswersAndOnceAfterIt() async throws {
        try await TestServer.with(Self.slowServer(.milliseconds(300))) { server in
            try await StateSyncClient.withConnection(ClientFixtures.configuration(server.url, name: "alice")) { client in
                let board = try await client.mirror(Board.self, optimistic: true)
                let seen = Recorded<[Todo]>()
                let token = board.subscribe(\.todos) { seen.append($0) }
                defer { token.cancel() }

                async let acked = board.dispatch(.addTodo(title: "Milk"))
                var todos = board.observe(\.todos).makeAsyncIterator()
                while let shown = await todos.next(), shown.isEmpty {}
                // Shown, and the server's answer is not in: it is a prediction.
                #expect(board.view.pendingCount == 1)
                #expect(board.view.confirmed.todos.isEmpty)
                #expect(board.state.todos.map(\.title) == ["Milk"])

                let rev = try await acked
                #expect(board.view.pendingCount == 0)
                #expect(board.state.todos == [Todo(id: "t\(rev)", title: "Milk")])

                // Toggled: done once, never back (the patch holding it and its
                // ack are shown together, not the action applied twice).
                try await board.dispatch(.toggleTodo(id: "t\(rev)"))
                #expect(board.state.todos.map(\.done) == [true])
                let values = seen.values
                #expect(values.allSatisfy { $0.count <= 1 }, "Milk was shown twice: \(values)")
                let doneStates = values.compactMap(\.first?.done)
                #expect(doneStates.drop { !$0 }.allSatisfy { $0 }, "done went back: \(doneStates)")
            }
        }
    }

    @Test func anActionTheServerRejectsRollsBackAndNamesTheReason() async throws {
        // Toggling is for admins: the client's reducer, which knows nothing of
        // roles, predicts it; the server rejects it, whatever the timing.
        var configuration = Self.slowServer(.milliseconds(300))
        configuration.session.actionPermissions.minimumRoles["toggleTodo"] = .admin
        try await TestServer.with(configuration) { server in
            try await StateSyncClient.withConnection(ClientFixtures.configuration(server.url, name: "bob")) { client in
                let board = try await client.mirror(Board.self, optimistic: true)
                let rev = try await board.dispatch(.addTodo(title: "Milk"))
                let seen = Recorded<[Bool]>()
                let token = board.subscribe(\.todos) { seen.append($0.map(\.done)) }
                defer { token.cancel() }

                var rejection: DispatchRejection?
                do {
                    try await board.dispatch(.toggleTodo(id: "t\(rev)"))
                    Issue.record("a writer's toggle was applied")
                } catch let error as DispatchRejection {
                    rejection = error
                }
                #expect(rejection?.code == .forbidden)
                #expect(seen.values == [[false], [true], [false]], "predicted, then rolled back")
                #expect(board.state.todos == [Todo(id: "t\(rev)", title: "Milk")])
                #expect(board.view.pendingCount == 0)
            }
        }
    }

    @Test func theMirrorIsOfTheWholeStateAndARoleThatMayNotReadItIsRefused() async throws {
        var configuration = TestServer.configuration
        configuration.session.readPermissions.minimumRoles[try JSONPointer(parsing: "/presence")] = .admin
        try await TestServer.with(configuration) { server in
            try await StateSyncClient.withConnection(ClientFixtures.configuration(server.url)) { client in
                let error = await #expect(throws: StateSyncClientError.self) {
                    _ = try await client.mirror(Board.self, optimistic: true)
                }
                #expect(error?.code == .forbidden)
            }
        }
    }

    @Test func withoutPredictionItShowsTheConfirmedStateOnly() async throws {
        try await TestServer.with(Self.slowServer(.milliseconds(300))) { server in
            try await StateSyncClient.withConnection(ClientFixtures.configuration(server.url)) { client in
                let board = try await client.mirror(Board.self, optimistic: false)
                async let acked = board.dispatch(.increment(counter: "hits", by: 2))
                #expect(try await eventually { await client.pending.dispatches.count == 1 })
                #expect(board.state.counters["hits"] == nil)
                #expect(board.view.pendingCount == 0)
                _ = try await acked
                #expect(board.state.counters["hits"] == 2)
            }
        }
    }
}

/// Values recorded from any thread, in order.
final class Recorded<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    func append(_ value: Value) {
        storage.withLock { $0.append(value) }
    }

    var values: [Value] { storage.withLock { $0 } }
}
