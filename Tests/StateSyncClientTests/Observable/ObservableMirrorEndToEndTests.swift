import BoardApp
import StateSyncClient
import StateSyncCore
import StateSyncProtocol
import StateSyncServer
import StateSyncTestSupport
import Testing

/// Two clients of a real board server: one's actions invalidate the other's
/// observers of the slices they change, and no other observer; pending,
/// rejected and connection states are observable too.
@Suite(.timeLimit(.minutes(1)))
struct ObservableMirrorEndToEndTests {
    @Test func anotherClientsPatchInvalidatesOnlyTheReadersOfItsSlice() async throws {
        try await TestServer.with(TestServer.configuration) { server in
            try await StateSyncClient.withConnection(ClientFixtures.configuration(server.url, name: "alice")) { alice in
                try await StateSyncClient.withConnection(ClientFixtures.configuration(server.url, name: "bob")) { bob in
                    let board = try await bob.mirror(Board.self, optimistic: true).observable
                    let todos = Invalidation { _ = board.state.todos }
                    let counters = Invalidation { _ = board.state.counters }
                    #expect(board.connection == .online)

                    let hits = try await alice.dispatch(BoardAction.increment(counter: "hits", by: 2))
                    await counters.next()
                    await ClientFixtures.waitForRevision(hits, on: bob)
                    #expect(board.state.counters == ["hits": 2])
                    #expect(todos.total == 0, "a counter's patch invalidated a reader of the todos")

                    let added = try await alice.dispatch(BoardAction.addTodo(title: "Milk"))
                    await todos.next()
                    await ClientFixtures.waitForRevision(added, on: bob)
                    #expect(board.state.todos == [Todo(id: "t\(added)", title: "Milk")])
                    #expect(counters.total == 1, "a todo's patch invalidated a reader of the counters")
                    #expect(todos.total == 1)
                }
            }
        }
    }

    @Test func ownActionsArePendingUntilAnsweredAndARejectionIsObservable() async throws {
        var configuration = TestServer.configuration
        configuration.injectedLatency = .milliseconds(200)
        configuration.session.actionPermissions.minimumRoles["toggleTodo"] = .admin
        try await TestServer.with(configuration) { server in
            try await StateSyncClient.withConnection(ClientFixtures.configuration(server.url, name: "carol")) { client in
                let board = try await client.mirror(Board.self, optimistic: true).observable
                let pending = Invalidation { _ = board.isPending }
                let rejections = Invalidation { _ = board.lastRejection }

                async let acked = board.dispatch(.addTodo(title: "Milk"))
                await pending.next()
                #expect(board.isPending)
                #expect(board.state.todos.map(\.title) == ["Milk"], "the prediction shows before the answer")
                let rev = try await acked
                #expect(!board.isPending)

                await #expect(throws: DispatchRejection.self) { try await board.dispatch(.toggleTodo(id: "t\(rev)")) }
                await rejections.next()
                #expect(board.lastRejection?.code == .forbidden)
                #expect(board.state.todos.map(\.done) == [false], "the rejected toggle rolled back")
            }
        }
    }
}
