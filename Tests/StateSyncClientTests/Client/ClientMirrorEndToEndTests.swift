import TestProcessSupport
import BoardApp
import StateSyncCore
import StateSyncProtocol
import StateSyncServer
import StateSyncTestSupport
import Testing

@testable import StateSyncClient

/// The client's mirror against a real server: shared subscriptions, dispatch
/// answers, errors, typed mirrors and concurrent writers converging. Two
/// minutes: inside the whole suite one of them took 61.1 s (a clean-clone run
/// on 2026-11-26).
@Suite(.timeLimit(.minutes(2))) struct ClientMirrorEndToEndTests {
    @Test func localObserversOfSlicesShareOneServerSubscription() async throws {
        try await TestServer.with { server in
            try await StateSyncClient.withConnection(ClientFixtures.configuration(server.url)) { client in
                try await client.subscribe("/todos")
                var titles = try await client.observe("/todos/0/title").makeAsyncIterator()
                var todos = try await client.observe("/todos", as: [Todo].self).makeAsyncIterator()
                #expect(try await titles.next() == .null)
                #expect(try await todos.next() == [])

                let rev = try await client.dispatch(["type": "addTodo", "title": "Milk"])
                #expect(try await titles.next() == "Milk")
                #expect(try await todos.next() == [Todo(id: "t\(rev)", title: "Milk", done: false)])
                #expect(await client.subscriptions.records.count == 1)
            }
        }
    }

    @Test func theMirrorHoldsEveryPatchUpToTheAckedRevisionWhenDispatchReturns() async throws {
        try await TestServer.with { server in
            try await StateSyncClient.withConnection(ClientFixtures.configuration(server.url)) { client in
                try await client.subscribe("/counters")
                for expected in 1...20 {
                    let rev = try await client.dispatch(ClientFixtures.increment("hits"))
                    #expect(try await client.value(at: "/counters/hits") == .integer(Int64(expected)))
                    #expect(client.status.rev >= rev)
                }
            }
        }
    }

    @Test func aRejectionThrowsItsCodeAndMessageAndChangesNothing() async throws {
        try await TestServer.with { server in
            try await StateSyncClient.withConnection(ClientFixtures.configuration(server.url)) { client in
                let before = try await client.get("")
                let error = await #expect(throws: DispatchRejection.self) {
                    try await client.dispatch(["type": "toggleTodo", "id": "nope"])
                }
                #expect(error?.code == .notFound)
                #expect(error?.message.contains("nope") == true)
                #expect(try await client.get("") == before)
                let invalid = await #expect(throws: DispatchRejection.self) {
                    try await client.dispatch(BoardAction.addTodo(title: ""))
                }
                #expect(invalid?.code == .invalidAction)
            }
        }
    }

    @Test func serverErrorsAndBadPathsFailTheirCallWithAClearMessage() async throws {
        var configuration = TestServer.configuration
        configuration.session.readPermissions = try ReadPermissions([JSONPointer(parsing: "/presence"): .admin])
        try await TestServer.with(configuration) { server in
            try await StateSyncClient.withConnection(ClientFixtures.configuration(server.url)) { client in
                let forbidden = await #expect(throws: StateSyncClientError.self) { try await client.observe("/presence") }
                #expect(forbidden?.code == .forbidden)
                #expect(forbidden?.description.hasPrefix("/presence: forbidden") == true)
                let invalid = await #expect(throws: StateSyncClientError.self) { try await client.subscribe("todos") }
                #expect(invalid?.description.hasPrefix(#"invalid path "todos": "#) == true)
                // The client is still fine afterwards.
                let counters = try await client.value(at: "/counters")
                #expect(counters == .object([:]))
            }
        }
    }

    @Test func aTypedMirrorOfTheWholeStateIsObservedByKeyPathLikeAStore() async throws {
        try await TestServer.with { server in
            try await StateSyncClient.withConnection(ClientFixtures.configuration(server.url, name: "typed")) { client in
                let board = try await client.mirror(BoardState.self)
                var counters = board.observe(\.counters).makeAsyncIterator()
                var todos = board.observe(\.todos).makeAsyncIterator()
                #expect(await counters.next() == [:])
                #expect(await todos.next() == [])
                try await client.dispatch(ClientFixtures.increment("hits", by: 3))
                #expect(await counters.next() == ["hits": 3])
                try await client.dispatch(BoardAction.addTodo(title: "Eggs"))
                #expect(await todos.next()?.map(\.title) == ["Eggs"])
                #expect(board.state.presence.values.map(\.name) == ["typed"])
                #expect(board.decodingError == nil)
            }
        }
    }

    @Test func threeClientsDispatchingConcurrentlyConvergeToTheServersState() async throws {
        try await TestServer.with { server in
            let clients = (0..<3).map { StateSyncClient(configuration: ClientFixtures.configuration(server.url, name: "c\($0)")) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in clients { group.addTask { try await client.run() } }
                for client in clients {
                    try await client.waitUntilOnline()
                    try await client.subscribe("")
                }
                let revs = try await withThrowingTaskGroup(of: [UInt64].self) { dispatchers in
                    for (index, client) in clients.enumerated() {
                        dispatchers.addTask {
                            var revs: [UInt64] = []
                            for step in 0..<30 {
                                revs.append(try await client.dispatch(step % 3 == 0
                                    ? ["type": "addTodo", "title": .string("c\(index)-\(step)")]
                                    : ClientFixtures.increment(step % 2 == 0 ? "even" : "c\(index)")))
                            }
                            return revs
                        }
                    }
                    return try await dispatchers.reduce(into: []) { $0 += $1 }
                }
                #expect(Set(revs).count == 90)
                let final = try await clients[0].get("")
                for client in clients {
                    await ClientFixtures.waitForRevision(final.rev, on: client)
                    #expect(try await client.value(at: "") == final.value)
                }
                #expect(final.value["todos"]?.arrayValue?.count == 30)
                for client in clients { await client.close() }
                try await group.waitForAll()
            }
        }
    }

    @Test func withNoServerTheErrorSaysConnectionRefusedInPlainWords() async throws {
        let reserved = try ReservedPort()
        let url = "ws://127.0.0.1:\(reserved.port)/sync"
        let error = await #expect(throws: StateSyncClientError.self) {
            try await StateSyncClient.withConnection(ClientFixtures.configuration(url)) { _ in }
        }
        #expect(error?.description == "cannot connect to \(url): connection refused")
        reserved.release()
    }

    @Test func aBadTokenEndsTheClientWithoutRetrying() async throws {
        var configuration = TestServer.configuration
        configuration.authentication = .tokens(["right": .writer])
        try await TestServer.with(configuration) { server in
            var clientConfiguration = ClientFixtures.configuration(server.url)
            clientConfiguration.token = "wrong"
            clientConfiguration.waitsForServer = true
            let client = StateSyncClient(configuration: clientConfiguration)
            let error = await #expect(throws: StateSyncClientError.self) { try await client.run() }
            #expect(error?.code == .unauthorized)
            #expect(client.status.connection == .closed)
            await #expect(throws: StateSyncClientError.self) { try await client.dispatch(ClientFixtures.increment("x")) }
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct ClientUnsubscribeEndToEndTests {
    @Test func unsubscribingForgetsTheValueUnlessAnotherSubscriptionCoversIt() async throws {
        try await TestServer.with { server in
            try await StateSyncClient.withConnection(ClientFixtures.configuration(server.url)) { client in
                try await client.subscribe("/counters")
                try await client.dispatch(ClientFixtures.increment("hits"))
                try await client.unsubscribe("/counters")
                #expect(client.mirror.state["counters"] == .null)
                #expect(await client.subscriptions.records.isEmpty)

                try await client.subscribe("")
                try await client.subscribe("/counters")
                try await client.unsubscribe("/counters")
                #expect(client.mirror.state["counters"] == ["hits": 1])
                #expect(await client.subscriptions.records.keys.map(\.description) == [""])
            }
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct ClientChangesEndToEndTests {
    @Test func changesCarryTheRevisionThatMadeEachValue() async throws {
        try await TestServer.with { server in
            try await StateSyncClient.withConnection(ClientFixtures.configuration(server.url)) { client in
                var changes = try await client.changes(at: "/counters/hits").makeAsyncIterator()
                let first = try #require(await changes.next())
                #expect(first.value == .null)
                var revs: [UInt64] = []
                for _ in 0..<5 { revs.append(try await client.dispatch(ClientFixtures.increment("hits"))) }
                try await client.dispatch(ClientFixtures.increment("other"))   // not a change of /counters/hits
                revs.append(try await client.dispatch(ClientFixtures.increment("hits", by: 10)))
                var seen: [MirrorChange] = []
                for _ in revs { seen.append(try #require(await changes.next())) }
                #expect(seen.map(\.rev) == revs)
                #expect(seen.map(\.value) == [1, 2, 3, 4, 5, 15])
            }
        }
    }
}
