import Foundation
import StateSyncCore
import StateSyncProtocol
import StateSyncServer
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// Many stores on one server, over real sockets: each message names its
/// store, each store keeps its own state, revisions and epoch, and every
/// bound refuses only the one who reaches it.
@Suite(.timeLimit(.minutes(1)))
struct StoresEndToEndTests {
    @Test func twoStoresOnOneConnectionKeepTheirOwnStateRevisionsAndEpoch() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.joined(server.url, clientID: "c1")
            try await client.send(#"{"type":"subscribe","store":"team-a","id":"s1","path":"/counters"}"#)
            let snapshot = try await client.receive("snapshot")
            #expect(snapshot["store"] == "team-a")
            let epoch = try #require(snapshot["epoch"]?.stringValue)
            #expect(epoch != client.welcome["epoch"]?.stringValue, "each store has an epoch of its own")

            try await client.send(#"{"type":"dispatch","store":"team-a","id":"a1","action":{"type":"increment","counter":"hits","by":3}}"#)
            let patch = try await client.receive("patch")
            #expect(patch["store"] == "team-a")
            #expect(patch["id"] == "s1")
            let ack = try await client.receive("ack")
            #expect(ack["store"] == "team-a")
            #expect(ack["id"] == "a1")

            // main, without a store field, as every client of before: untouched, and its messages name no store.
            try await client.send(#"{"type":"get","id":"g1","path":"/counters/hits"}"#)
            let mainValue = try await client.receive("value")
            #expect(mainValue["value"] == nil as JSONValue)
            #expect(mainValue["store"] == nil)
            try await client.send(#"{"type":"dispatch","id":"a1","action":{"type":"increment","counter":"hits","by":5}}"#)
            let mainAck = try await client.receive("ack")
            #expect(mainAck["store"] == nil)

            // The same action id in another store is another action (exactly-once is per store).
            try await client.send(#"{"type":"dispatch","store":"team-b","id":"a1","action":{"type":"increment","counter":"hits","by":7}}"#)
            #expect(try await client.receive("ack")["store"] == "team-b")
            for (store, hits) in [("team-a", 3), ("team-b", 7), ("main", 5)] {
                try await client.send(.object(["type": "get", "store": .string(store), "id": "g", "path": "/counters/hits"]))
                let value = try await client.receive("value")
                #expect(value["value"]?.int64Value == Int64(hits), "\(store)")
            }
            try await client.send(#"{"type":"unsubscribe","store":"team-a","id":"s1"}"#)
            let unsubscribed = try await client.receive("unsubscribed")
            #expect(unsubscribed["store"] == "team-a")
        }
    }

    @Test(arguments: ["Team", "", "-lead", "a b", String(repeating: "x", count: 65), "é"])
    func anInvalidStoreNameIsRefusedNamingTheRuleAndTheConnectionGoesOn(name: String) async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.joined(server.url)
            try await client.send(.object(["type": "get", "store": .string(name), "id": "g1", "path": ""]))
            let error = try await client.receive("error")
            #expect(error["code"] == "invalid_store")
            #expect(error["id"] == "g1")
            #expect(error["message"]?.stringValue?.contains("a-z 0-9 . _ -") == true)
            try await client.send(#"{"type":"get","store":"ok.name_1","id":"g2","path":""}"#)
            #expect(try await client.receive("value")["id"] == "g2")
        }
    }

    @Test func anErrorAboutAMessageForAnotherStoreNamesThatStore() async throws {
        var configuration = TestServer.configuration
        configuration.session.maxSubscriptions = 1
        try await TestServer.with(configuration) { server in
            let client = try await ProtocolClient.joined(server.url)
            for (message, code) in [
                (#"{"type":"subscribe","store":"team-a","id":"s1","path":"bad"}"#, "invalid_path"),
                (#"{"type":"get","store":"team-a","id":"g1"}"#, "bad_request"),
                (#"{"type":"subscribe","store":"team-a","id":"s2","path":""}"#, ""),
                (#"{"type":"subscribe","store":"team-a","id":"s3","path":""}"#, "too_many_subscriptions"),
            ] {
                try await client.send(message)
                let answer = try await client.receive()
                #expect(answer["store"] == "team-a", "\(answer)")
                if !code.isEmpty { #expect(answer["code"] == .string(code)) }
            }
            // main's errors still name no store.
            try await client.send(#"{"type":"get","id":"g2","path":"bad"}"#)
            let mainError = try await client.receive("error")
            #expect(mainError["store"] == nil)
        }
    }

    @Test(arguments: [nil, "team-x"] as [String?])
    func aResumeInAnotherEpochGetsASnapshotNotAPatchOfAnotherHistory(store: String?) async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.joined(server.url)
            func send(_ fields: JSONObject) async throws {
                var fields = fields
                if let store { fields["store"] = .string(store) }
                try await client.send(.object(fields))
            }
            try await send(["type": "get", "id": "g", "path": "/counters"])
            let value = try await client.receive("value")
            let epoch = try #require(value["epoch"]?.stringValue ?? client.welcome["epoch"]?.stringValue)
            let since = try #require(value["rev"]?.int64Value)
            try await send(["type": "dispatch", "id": "a1", "action": ["type": "increment", "counter": "n"]])
            _ = try await client.receive("ack")
            // The same epoch resumes with a patch; another epoch's revision gets a snapshot.
            try await send(["type": "subscribe", "id": "same", "path": "/counters", "since": .integer(since), "epoch": .string(epoch)])
            #expect(try await client.receive()["type"] == "patch")
            try await send(["type": "subscribe", "id": "other", "path": "/counters", "since": .integer(since), "epoch": "e-another-history"])
            let answer = try await client.receive()
            #expect(answer["type"] == "snapshot")
            #expect(answer["value"] == ["n": 1])
        }
    }

    @Test func aReaderOpensAStoreThatExistsButCannotCreateOne() async throws {
        var configuration = TestServer.configuration
        configuration.authentication = .tokens(["w": .writer, "r": .reader])
        try await TestServer.with(configuration) { server in
            let reader = try await ProtocolClient.joined(server.url, token: "r")
            try await reader.send(#"{"type":"subscribe","store":"team-a","id":"s1","path":""}"#)
            let refused = try await reader.receive("error")
            #expect(refused["code"] == "forbidden")
            #expect(refused["id"] == "s1")
            #expect(refused["message"] == #"store "team-a" does not exist and role reader may not create it"#)

            let writer = try await ProtocolClient.joined(server.url, token: "w")
            try await writer.send(#"{"type":"dispatch","store":"team-a","id":"a1","action":{"type":"increment","counter":"n"}}"#)
            _ = try await writer.receive("ack")
            try await reader.send(#"{"type":"subscribe","store":"team-a","id":"s1","path":"/counters"}"#)
            #expect(try await reader.receive("snapshot")["value"] == ["n": 1])
        }
    }

    @Test func storesPerConnectionAreBoundedForTheOneWhoReachesTheBound() async throws {
        var configuration = TestServer.configuration
        configuration.session.maxStoresPerSession = 2
        try await TestServer.with(configuration) { server in
            let greedy = try await ProtocolClient.joined(server.url)
            try await greedy.send(#"{"type":"get","store":"one","id":"g1","path":""}"#)
            _ = try await greedy.receive("value")
            try await greedy.send(#"{"type":"get","store":"two","id":"g2","path":""}"#)
            let refused = try await greedy.receive("error")
            #expect(refused["code"] == "limit_reached")
            #expect(refused["message"] == "too many stores on one connection: at most 2")
            // The stores it is in still answer it, and a bystander opens the store it could not.
            try await greedy.send(#"{"type":"get","store":"one","id":"g3","path":""}"#)
            #expect(try await greedy.receive("value")["id"] == "g3")
            let bystander = try await ProtocolClient.joined(server.url)
            try await bystander.send(#"{"type":"get","store":"two","id":"g4","path":""}"#)
            #expect(try await bystander.receive("value")["store"] == "two")
        }
    }

    @Test func openStoresAreBoundedAndAnIdleOneMakesRoom() async throws {
        try await withTemporaryDirectory { directory in
        var configuration = TestServer.configuration
        configuration.storage = .directory(directory)
        configuration.stores.maxResidentStores = 2   // main and one more
        configuration.session.messagesPerSecond = 100_000   // the retries below are round trips at full speed
        configuration.session.burst = 100_000
        try await TestServer.with(configuration) { server in
            let holder = try await ProtocolClient.joined(server.url)
            try await holder.send(#"{"type":"dispatch","store":"held","id":"a1","action":{"type":"increment","counter":"n"}}"#)
            _ = try await holder.receive("ack")
            let other = try await ProtocolClient.joined(server.url)
            try await other.send(#"{"type":"get","store":"another","id":"g1","path":""}"#)
            let refused = try await other.receive("error")
            #expect(refused["code"] == "limit_reached")
            #expect(refused["message"]?.stringValue?.hasPrefix("too many open stores: at most 2") == true)
            // The holder is unaffected; once it leaves, its idle store closes to make room.
            try await holder.send(#"{"type":"get","store":"held","id":"g2","path":"/counters/n"}"#)
            #expect(try await holder.receive("value")["value"] == 1)
            try await holder.close()
            let retried = try await Self.retryingWhileRefused(other, #"{"type":"get","store":"another","id":"g3","path":""}"#)
            #expect(retried["store"] == "another")
            // Every open store has a session: the closed one cannot come back yet.
            try await other.send(#"{"type":"get","store":"held","id":"g4","path":"/counters/n"}"#)
            #expect(try await other.receive("error")["code"] == "limit_reached")
            // Once "another" is idle, "held" reopens in its place with its state.
            try await other.close()
            let reader = try await ProtocolClient.joined(server.url)
            let reopened = try await Self.retryingWhileRefused(reader, #"{"type":"get","store":"held","id":"g5","path":"/counters/n"}"#)
            #expect(reopened["value"] == 1, "\(reopened)")
        }
        }
    }

    @Test func aStoreKeepsItsStateRevisionAndEpochAcrossARestart() async throws {
        try await withTemporaryDirectory { directory in
        var configuration = TestServer.configuration
        configuration.storage = .directory(directory)
        let before: JSONValue = try await TestServer.with(configuration) { server in
            let client = try await ProtocolClient.joined(server.url)
            for index in 1...3 {
                try await client.send(.object(["type": "dispatch", "store": "team-a", "id": .string("a\(index)"),
                                               "action": ["type": "increment", "counter": "n"]]))
                _ = try await client.receive("ack")
            }
            try await client.send(#"{"type":"get","store":"team-a","id":"g","path":"/counters"}"#)
            return try await client.receive("value")
        }
        #expect(FileManager.default.fileExists(atPath: directory + "/stores.sqlite"), "team-a is in the stores' file")
        try await TestServer.with(configuration) { server in
            let client = try await ProtocolClient.joined(server.url)
            try await client.send(#"{"type":"get","store":"team-a","id":"g","path":"/counters"}"#)
            let after = try await client.receive("value")
            #expect(after["value"] == ["n": 3])
            #expect(after["epoch"] == before["epoch"])
            // The revision goes on from the stored one (a restart journals serverStarted, presence its join).
            let revisions = try (#require(before["rev"]?.int64Value), #require(after["rev"]?.int64Value))
            #expect(revisions.1 >= revisions.0)
            try await client.send(#"{"type":"get","id":"m","path":"/counters/n"}"#)
            #expect(try await client.receive("value")["value"] == nil as JSONValue, "main never saw team-a's actions")
        }
        }
    }

    /// A restarted server counts the stores its data directory holds
    /// against `maxStores` (main and two here): a third is refused, the
    /// stored ones still open.
    @Test func storesInAllAreCountedFromTheDataDirectoryAfterARestart() async throws {
        try await withTemporaryDirectory { directory in
        var configuration = TestServer.configuration
        configuration.storage = .directory(directory)
        configuration.stores.maxStores = 3
        try await TestServer.with(configuration) { server in
            let client = try await ProtocolClient.joined(server.url)
            for store in ["a", "b"] {
                try await client.send(.object(["type": "dispatch", "store": .string(store), "id": .string(store),
                                               "action": ["type": "increment", "counter": "n"]]))
                _ = try await client.receive("ack")
            }
        }
        try await TestServer.with(configuration) { server in
            let client = try await ProtocolClient.joined(server.url)
            try await client.send(#"{"type":"get","store":"c","id":"c","path":""}"#)
            let refused = try await client.receive("error")
            #expect(refused["code"] == "limit_reached")
            #expect(refused["message"] == "too many stores: at most 3; delete some first")
            try await client.send(#"{"type":"get","store":"b","id":"b","path":"/counters/n"}"#)
            #expect(try await client.receive("value")["value"] == 1)
        }
        }
    }

    /// Sends `request` until it is not refused `limit_reached`, at most
    /// 1,000 times: a closed connection leaves its stores once the server
    /// has read the close, which no message tells; each try is a round trip.
    private static func retryingWhileRefused(_ client: ProtocolClient, _ request: String) async throws -> JSONValue {
        for _ in 0..<1_000 {
            try await client.send(request)
            let answer = try await client.receive()
            guard answer["code"] == "limit_reached" else { return answer }
        }
        Issue.record("still refused after 1,000 tries")
        return nil
    }
}
