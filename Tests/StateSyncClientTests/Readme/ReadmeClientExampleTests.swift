import BoardApp
import StateSyncClient
import StateSyncCore
import StateSyncTestSupport
import Testing

/// The client example of docs/client.md ("Connecting, mirroring,
/// dispatching"), line for line, run against a real server (its endless
/// `for await` loops stop after the first value here). Change both together.
@Suite(.timeLimit(.minutes(1))) struct ReadmeClientExampleTests {
    @Test func theReadmeClientExampleRuns() async throws {
        try await TestServer.with { server in
            var configuration = StateSyncClientConfiguration(url: server.url)
            configuration.clientID = "c-readme"
            configuration.name = "alice-laptop"

            try await StateSyncClient.withConnection(configuration) { client in
                try await client.subscribe("/todos")
                let titles = try await client.observe("/todos/0/title")
                let todos = try await client.observe("/todos", as: [Todo].self)
                let board = try await client.mirror(BoardState.self)
                for await counters in board.observe(\.counters) {
                    #expect(counters == [:])
                    break
                }

                let rev = try await client.dispatch(["type": "addTodo", "title": "Milk"])
                var rejected: DispatchRejection?
                do {
                    try await client.dispatch(BoardAction.toggleTodo(id: "nope"))
                } catch let rejection as DispatchRejection {
                    rejected = rejection
                }
                #expect(rejected.map { "\($0.code)" } == "not_found")
                #expect(rejected?.message == "no todo with id nope")
                for await state in client.observeStatus(\.connection) {
                    #expect(state == .online)
                    break
                }
                for try await title in titles where title == "Milk" { break }
                for try await list in todos where !list.isEmpty {
                    #expect(list == [Todo(id: "t\(rev)", title: "Milk")])
                    break
                }
            }
        }
    }
}

/// The optimistic example of docs/client.md ("Optimistic updates"), against a real server.
@Suite(.timeLimit(.minutes(1))) struct ReadmeOptimisticExampleTests {
    @Test func theReadmeOptimisticExampleRuns() async throws {
        try await TestServer.with { server in
            try await StateSyncClient.withConnection(StateSyncClientConfiguration(url: server.url)) { client in
                let board = try await client.mirror(Board.self, optimistic: true)
                var todos = board.observe(\.todos).makeAsyncIterator()
                #expect(await todos.next() == [])
                let rev = try await board.dispatch(.addTodo(title: "Milk"))
                #expect(board.state.todos == [Todo(id: "t\(rev)", title: "Milk")])
                #expect(board.view.pendingCount == 0)
            }
        }
    }
}

/// The opening example of README.md (above "Two commands"), line for line,
/// against a real server (its endless `for await` loop stops after the first
/// value here). Change both together.
@Suite(.timeLimit(.minutes(1))) struct ReadmeOpeningExampleTests {
    @Test func theReadmeOpeningExampleRuns() async throws {
        try await TestServer.with { server in
            try await StateSyncClient.withConnection(StateSyncClientConfiguration(url: server.url)) { client in
                let board = try await client.mirror(Board.self, optimistic: true)  // a live mirror of the server's state
                let rev = try await board.dispatch(.addTodo(title: "Milk"))        // shown at once; returns on the server's ack
                print("Milk is durable at revision", rev, board.state.todos)
                for await todos in board.observe(\.todos) {
                    #expect(todos == [Todo(id: "t\(rev)", title: "Milk")])
                    break
                }
            }
        }
    }
}

/// The stores example of docs/client.md ("Stores"), line for line, against a
/// real server (its endless `for await` loop stops after the first value here).
@Suite(.timeLimit(.minutes(1))) struct ReadmeStoresExampleTests {
    @Test func theReadmeStoresExampleRuns() async throws {
        try await TestServer.with { server in
            try await StateSyncClient.withConnection(StateSyncClientConfiguration(url: server.url)) { client in
                let team = try client.store("team-42")                      // a ClientStore; a bad name throws invalidStore
                try await team.subscribe("/todos")
                let todos = try await team.observe("/todos", as: [Todo].self)
                let rev = try await team.dispatch(["type": "addTodo", "title": "Milk"])   // team-42's rev, not main's
                let board = try await team.mirror(Board.self, optimistic: true)          // its dispatches go to team-42
                for await rev in await team.observeRev() {
                    #expect(rev >= 1)
                    break
                }
                try await client.dispatch(["type": "addTodo", "title": "Bread"])         // main, as before
                for try await list in todos where !list.isEmpty {
                    #expect(list == [Todo(id: "t\(rev)", title: "Milk")])
                    break
                }
                #expect(board.state.todos.map(\.title) == ["Milk"])
                #expect(try await client.get("/todos").value.arrayValue?.map { $0["title"] } == ["Bread"])
            }
        }
    }
}
