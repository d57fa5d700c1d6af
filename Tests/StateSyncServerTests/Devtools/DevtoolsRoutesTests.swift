import TestProcessSupport
import Foundation
import StateSyncCore
import StateSyncProtocol
import StateSyncServer
import Testing
import StateSyncTestSupport

/// The devtools' HTTP JSON endpoints against a real server (docs/PROTOCOL.md, "Devtools").
/// Two minutes: inside the whole suite on this 2-core machine its tests took
/// up to 60–62 s (a clean-clone run on 2026-11-26); alone, under a second.
@Suite(.timeLimit(.minutes(2)))
struct DevtoolsRoutesTests {
    private static func json(_ port: Int, _ path: String, token: String? = "s3cret") async throws -> (Int, JSONValue) {
        let headers = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        let (status, body) = try await HTTPGet.get(port: port, path: path, headers: headers)
        return (status, try JSONParser().parse(Array(body.utf8)))
    }

    private static var authenticated: StateSyncServerConfiguration {
        var configuration = TestServer.configuration
        configuration.authentication = .tokens(["s3cret": .admin, "pen": .writer])
        return configuration
    }

    @Test func onlyAdminsMayReadWhenAuthenticationIsOn() async throws {
        try await TestServer.with(Self.authenticated) { server in
            for path in ["/devtools/api/journal", "/devtools/api/state", "/devtools/api/sessions", "/devtools/api/rejections"] {
                let (missing, refusal) = try await Self.json(server.port, path, token: nil)
                #expect(missing == 401, "\(path)")
                #expect(refusal["error"]?["code"] == "unauthorized")
                #expect(try await Self.json(server.port, path, token: "wrong").0 == 401)
                let (writer, forbidden) = try await Self.json(server.port, path, token: "pen")
                #expect(writer == 403)
                #expect(forbidden["error"]?["message"]?.stringValue?.contains("role in main is writer") == true)
                #expect(try await Self.json(server.port, path).0 == 200, "\(path)")
            }
            // The pages themselves hold no data and are served to anyone.
            #expect(try await HTTPGet.get(port: server.port, path: "/devtools").body.contains("StateSync devtools"))
            #expect(try await HTTPGet.get(port: server.port, path: "/statesync.js").body.contains("export class StateSyncClient"))
        }
    }

    @Test func theJournalListsEachActionWithItsPatchAndTheRejectionsApart() async throws {
        try await TestServer.with(Self.authenticated) { server in
            let client = try await ProtocolClient.joined(server.url, clientID: "c-dev", token: "pen", name: "alice")
            try await client.send(#"{"type":"dispatch","id":"a1","action":{"type":"addTodo","title":"Milk"}}"#)
            let ack = try await client.receive("ack")
            let rev = try #require(ack["rev"]?.intValue)
            try await client.send(#"{"type":"dispatch","id":"a2","action":{"type":"toggleTodo","id":"nope"}}"#)
            _ = try await client.receive("reject")

            let (status, journal) = try await Self.json(server.port, "/devtools/api/journal?from=1")
            #expect(status == 200)
            #expect(journal["latest"] == .integer(Int64(rev)))
            #expect(journal["oldest"] == 1)
            let entries = try #require(journal["entries"]?.arrayValue)
            #expect(entries.map { $0["rev"]?.intValue } == (1...rev).map { $0 })
            #expect(entries.first?["command"] == "sessionJoined", "a fresh journal starts with the session's join, not serverStarted")
            let added = try #require(entries.last)
            #expect(added["command"] == "dispatch")
            #expect(added["clientId"] == "c-dev")
            #expect(added["actionId"] == "a1")
            #expect(added["session"]?["name"] == "alice")
            #expect(added["action"] == ["type": "addTodo", "title": "Milk"])
            #expect(added["patch"] == [["op": "add", "path": "/todos/0", "value": ["id": .string("t\(rev)"), "title": "Milk", "done": false, "priority": "normal"]]])

            let (_, only) = try await Self.json(server.port, "/devtools/api/journal?from=\(rev)&through=\(rev)")
            #expect(only["entries"]?.arrayValue?.count == 1)

            let (_, rejected) = try await Self.json(server.port, "/devtools/api/rejections")
            let rejection = try #require(rejected["rejections"]?.arrayValue?.first)
            #expect(rejection["code"] == "not_found")
            #expect(rejection["actionId"] == "a2")
            #expect(rejection["clientId"] == "c-dev")
            #expect(rejection["action"] == ["type": "toggleTodo", "id": "nope"])
            #expect(rejection["rev"] == .integer(Int64(rev)))
            let seq = try #require(rejection["seq"]?.intValue)
            #expect(try await Self.json(server.port, "/devtools/api/rejections?after=\(seq)").1["rejections"] == [])
            try await client.close()
        }
    }

    @Test(arguments: [false, true])
    func theStateAtARevisionIsRebuiltFromSnapshotAndJournal(sqlite: Bool) async throws {
        try await withTemporaryDirectory { directory in
            var configuration = TestServer.configuration
            configuration.engine.snapshotEvery = 3
            if sqlite { configuration.storage = .directory(directory) }
            try await TestServer.with(configuration) { server in
                let client = try await ProtocolClient.joined(server.url)
                var seen: [(Int, JSONValue)] = []
                for (index, action) in [
                    #"{"type":"addTodo","title":"Milk"}"#, #"{"type":"increment","counter":"hits","by":2}"#,
                    #"{"type":"addTodo","title":"Bread"}"#, #"{"type":"postMessage","text":"hi"}"#, #"{"type":"increment","counter":"hits"}"#,
                    #"{"type":"toggleTodo","id":"MILK"}"#, #"{"type":"clearCompleted"}"#,
                    #"{"type":"renameTodo","id":"BREAD","title":"Oat milk"}"#,
                ].enumerated() {
                    // MILK and BREAD: the ids of the todos the first and third action add.
                    let ids = ["MILK": seen.first?.0, "BREAD": seen.count > 2 ? seen[2].0 : nil]
                    let resolved = ids.reduce(action) { text, id in text.replacingOccurrences(of: id.key, with: "t\(id.value ?? 0)") }
                    try await client.send(#"{"type":"dispatch","id":"a\#(index)","action":\#(resolved)}"#)
                    let ack = try await client.receive()
                    try await client.send(#"{"type":"get","id":"g\#(index)","path":""}"#)
                    let value = try await client.receive("value")
                    seen.append((try #require(ack["rev"]?.intValue, "\(ack)"), value["value"] ?? .null))
                }
                let (_, journal) = try await Self.json(server.port, "/devtools/api/journal", token: nil)
                #expect(journal["snapshots"]?.arrayValue?.isEmpty == false, "snapshots every 3 revisions")
                var replayedFromASnapshot = false
                for (rev, state) in seen {
                    let (status, rebuilt) = try await Self.json(server.port, "/devtools/api/state?rev=\(rev)", token: nil)
                    #expect(status == 200)
                    #expect(rebuilt["rev"] == .integer(Int64(rev)))
                    #expect(rebuilt["state"] == state, "rev \(rev)")
                    let snapshot = try #require(rebuilt["snapshot"]?.intValue)
                    #expect(snapshot <= rev)
                    replayedFromASnapshot = replayedFromASnapshot || (snapshot > 0 && snapshot < rev)
                }
                #expect(replayedFromASnapshot, "some revision was rebuilt from a snapshot plus journal entries")
                let (initial, zero) = try await Self.json(server.port, "/devtools/api/state?rev=0", token: nil)
                #expect(initial == 200)
                #expect(zero["state"]?["todos"] == [])
                let (ahead, error) = try await Self.json(server.port, "/devtools/api/state?rev=999", token: nil)
                #expect(ahead == 404)
                #expect(error["error"]?["message"]?.stringValue?.hasPrefix("revision 999 does not exist yet") == true)
                #expect(try await Self.json(server.port, "/devtools/api/state?rev=-1", token: nil).0 == 400)
                try await client.close()
            }
        }
    }

    @Test func sessionsShowSubscriptionsAndTheirOutboundBuffer() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.joined(server.url, clientID: "c-9", name: "bob")
            try await client.send(#"{"type":"subscribe","id":"todos","path":"/todos"}"#)
            _ = try await client.receive("snapshot")
            let (status, body) = try await Self.json(server.port, "/devtools/api/sessions", token: nil)
            #expect(status == 200)
            let session = try #require(body["sessions"]?.arrayValue?.first { $0["name"] == "bob" })
            #expect(session["clientId"] == "c-9")
            #expect(session["role"] == "writer")
            #expect(session["subscriptions"] == [["id": "todos", "path": "/todos"]])
            #expect(session["deferredAnswers"]?.intValue == 0)
            #expect(session["slow"] == false)
            try await client.close()
        }
    }

    @Test func eachRouteShowsTheStoreItIsAskedForAndTheStoresAreListed() async throws {
        try await TestServer.with(Self.authenticated) { server in
            let client = try await ProtocolClient.joined(server.url, clientID: "c-dev", token: "pen", name: "alice")
            try await client.send(#"{"type":"subscribe","store":"team-a","id":"s1","path":"/todos"}"#)
            _ = try await client.receive("snapshot")
            try await client.send(#"{"type":"dispatch","store":"team-a","id":"a1","action":{"type":"addTodo","title":"Milk"}}"#)
            var answer = try await client.receive()
            while answer["type"] == "patch" { answer = try await client.receive() }
            let rev = try #require(answer["rev"]?.intValue)
            try await client.send(#"{"type":"dispatch","store":"team-a","id":"a2","action":{"type":"toggleTodo","id":"nope"}}"#)
            _ = try await client.receive("reject")

            // team-a's journal, state, sessions and rejections; main's are apart.
            let (status, journal) = try await Self.json(server.port, "/devtools/api/journal?store=team-a&from=1")
            #expect(status == 200, "\(journal)")
            let entries = try #require(journal["entries"]?.arrayValue)
            #expect(entries.last?["action"]?["title"] == "Milk")
            #expect(journal["latest"] == .integer(Int64(rev)))
            #expect(journal["epoch"] != nil && journal["epoch"]?.stringValue != client.welcome["epoch"]?.stringValue)
            let mainJournal = try await Self.json(server.port, "/devtools/api/journal?from=1").1
            #expect(mainJournal["entries"]?.arrayValue?.contains { $0["action"]?["title"] == "Milk" } == false)
            let before = try await Self.json(server.port, "/devtools/api/state?store=team-a&rev=\(rev - 1)").1
            #expect(before["state"]?["todos"] == [])
            let after = try await Self.json(server.port, "/devtools/api/state?store=team-a&rev=\(rev)").1
            #expect(after["state"]?["todos"]?[0]?["title"] == "Milk")
            let sessions = try await Self.json(server.port, "/devtools/api/sessions?store=team-a").1
            #expect(sessions["sessions"]?.arrayValue?.count == 1)
            let rejections = try await Self.json(server.port, "/devtools/api/rejections?store=team-a").1
            #expect(rejections["rejections"]?.arrayValue?.first?["code"] == "not_found")
            #expect(try await Self.json(server.port, "/devtools/api/rejections").1["rejections"] == [])

            // A bad name is invalid_store; a store the server does not hold is 404 and stays missing.
            let (badStatus, bad) = try await Self.json(server.port, "/devtools/api/state?store=Team")
            #expect(badStatus == 400)
            #expect(bad["error"]?["code"] == "invalid_store")
            let (missingStatus, missing) = try await Self.json(server.port, "/devtools/api/journal?store=nobody")
            #expect(missingStatus == 404)
            #expect(missing["error"]?["message"] == #"no store "nobody""#)
            // Access is checked for the store too: a writer may read none.
            #expect(try await Self.json(server.port, "/devtools/api/state?store=team-a", token: "pen").0 == 403)
            #expect(try await Self.json(server.port, "/devtools/api/state?store=team-a", token: nil).0 == 401)

            let listed = try await Self.json(server.port, "/devtools/api/stores").1
            #expect(listed["stores"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["main", "team-a"])
            #expect(listed["stores"]?[1]?["sessions"] == 1)
            #expect(try await Self.json(server.port, "/devtools/api/stores", token: "pen").1["stores"] == [])
            #expect(try await Self.json(server.port, "/devtools/api/stores", token: nil).0 == 401)
            try await client.close()
        }
    }
}
