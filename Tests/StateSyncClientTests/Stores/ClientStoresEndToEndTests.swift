import BoardApp
import StateSyncCore
import StateSyncProtocol
import StateSyncServer
import StateSyncTestSupport
import Testing

@testable import StateSyncClient

/// Several stores of one in-process server on one client connection: each
/// store's mirror, revisions and dispatches are its own.
@Suite(.timeLimit(.minutes(1))) struct ClientStoresEndToEndTests {
    @Test func twoStoresOnOneConnectionEachMirrorTheirOwnState() async throws {
        try await TestServer.with { server in
            try await StateSyncClient.withConnection(ClientFixtures.configuration(server.url)) { client in
                let red = try client.store("red"), blue = client.store(try StoreName("blue.team_2"))
                var redTodos = try await red.observe("/todos", as: [WireTodo].self).makeAsyncIterator()
                var blueTodos = try await blue.observe("/todos", as: [WireTodo].self).makeAsyncIterator()
                #expect(try await redTodos.next() == [])
                #expect(try await blueTodos.next() == [])

                let redRev = try await red.dispatch(["type": "addTodo", "title": "Red milk"])
                let blueRev = try await blue.dispatch(BoardAction.addTodo(title: "Blue bread"))
                #expect(try await redTodos.next()?.map(\.title) == ["Red milk"])
                #expect(try await blueTodos.next()?.map(\.title) == ["Blue bread"])
                // Revisions are per store: the same steps (a join, an action) give the same revision.
                #expect(redRev == blueRev)
                #expect(await red.rev == redRev)
                let mainRev = client.status.rev
                for _ in 0..<3 { try await red.dispatch(ClientFixtures.increment("n")) }
                #expect(await red.rev == redRev + 3)
                #expect(await blue.rev == blueRev)
                #expect(client.status.rev == mainRev)
                #expect(try await red.value(at: "/todos/0/title") == "Red milk")
                #expect(try await blue.get("/todos/0/title").value == "Blue bread")
                #expect(try await client.get("/todos").value == [])
                #expect(try await client.value(at: "/todos") == [])

                let redEpoch = try #require(await red.epoch), blueEpoch = try #require(await blue.epoch)
                #expect(redEpoch != blueEpoch, "each store's history has its own epoch")
                let board = try await red.mirror(BoardState.self)
                #expect(board.state.todos.map(\.title) == ["Red milk"])
                #expect(client.status.connections == 1)
            }
        }
    }

    @Test func aDispatchToOneStoreNeverShowsInAnother() async throws {
        try await TestServer.with { server in
            try await StateSyncClient.withConnection(ClientFixtures.configuration(server.url)) { client in
                let red = try client.store("red"), blue = try client.store("blue")
                var mainChanges = try await client.changes(at: "/counters").makeAsyncIterator()
                var blueChanges = try await blue.changes(at: "/counters").makeAsyncIterator()
                let optimistic = try await blue.mirror(Board.self, optimistic: true)
                #expect(await mainChanges.next()?.value == [:])
                #expect(await blueChanges.next()?.value == [:])

                for _ in 0..<5 { try await red.dispatch(ClientFixtures.increment("red")) }
                // Markers after red's acks: if red's changes reached another
                // store, they would come before its marker.
                try await blue.dispatch(ClientFixtures.increment("blue"))
                try await client.dispatch(ClientFixtures.increment("main"))
                #expect(await blueChanges.next()?.value == ["blue": 1])
                #expect(await mainChanges.next()?.value == ["main": 1])
                #expect(optimistic.state.counters.keys.sorted() == ["blue"])
                #expect(try await red.get("/counters").value == ["red": 5])
                #expect(try await red.value(at: "/counters") == ["red": 5])
            }
        }
    }

    @Test func anOptimisticMirrorOfAStoreDispatchesToThatStore() async throws {
        try await TestServer.with { server in
            try await StateSyncClient.withConnection(ClientFixtures.configuration(server.url)) { client in
                let green = try client.store("green")
                let board = try await green.mirror(Board.self, optimistic: true)
                let rev = try await board.dispatch(.addTodo(title: "Green tea"))
                #expect(await green.rev >= rev)
                #expect(board.state.todos.map(\.title) == ["Green tea"])
                #expect(try await green.get("/todos/0/title").value == "Green tea")
                #expect(try await client.get("/todos").value == [])
            }
        }
    }

    @Test(arguments: ["Team", "", "-lead", "a b", "../x", String(repeating: "x", count: 65)])
    func aBadStoreNameThrowsBeforeAnythingIsSent(_ name: String) throws {
        let client = StateSyncClient(configuration: ClientFixtures.configuration("ws://127.0.0.1:1/sync"))
        let error = #expect(throws: StateSyncClientError.self) { try client.store(name) }
        #expect(error == .invalidStore(name))
        #expect(error?.description == "invalid store name \"\(name)\": \(StoreName.rule)")
    }

    @Test func aStoreTheRoleMayNotCreateFailsItsCallsAndLeavesTheOthersWorking() async throws {
        var configuration = TestServer.configuration
        configuration.authentication = .tokens(["r": .reader])
        try await TestServer.with(configuration) { server in
            var reader = ClientFixtures.configuration(server.url)
            reader.token = "r"
            try await StateSyncClient.withConnection(reader) { client in
                let error = await #expect(throws: StateSyncClientError.self) { try await client.store("new-one").subscribe("/todos") }
                #expect(error?.code == .forbidden)
                let mainTodos = try await client.get("/todos").value   // main still answers
                #expect(mainTodos == [])
            }
        }
    }
}

/// The board's todo as the wire shows it.
private struct WireTodo: Decodable, Equatable, Sendable {
    let id: String
    let title: String
    let done: Bool
}
