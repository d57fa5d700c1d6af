import StateSyncCore
import StateSyncServer
import StateSyncTestSupport
import Testing

/// Subscriptions, one-shot reads and dispatches over real sockets.
@Suite(.timeLimit(.minutes(1)))
struct SubscriptionEndToEndTests {
    @Test func snapshotThenChainedPatchesAckedAfterThem() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.joined(server.url, clientID: "c1")
            try await client.send(#"{"type":"subscribe","id":"s1","path":"/todos"}"#)
            let snapshot = try await client.receive("snapshot")
            #expect(snapshot["id"] == "s1")
            #expect(snapshot["value"] == [])
            var base = try #require(snapshot["rev"]?.int64Value)
            var mirror = try #require(snapshot["value"])
            for (index, title) in ["Milk", "Eggs"].enumerated() {
                try await client.send(.object(["type": "dispatch", "id": .string("a\(index)"),
                                               "action": ["type": "addTodo", "title": .string(title)]]))
                let patch = try await client.receive("patch")
                #expect(patch["id"] == "s1")
                #expect(patch["base"]?.int64Value == base)
                let rev = try #require(patch["rev"]?.int64Value)
                #expect(rev > base)
                let ops = try JSONPatch(jsonValue: try #require(patch["ops"]))
                try ops.apply(to: &mirror)
                let ack = try await client.receive("ack")
                #expect(ack["id"]?.stringValue == "a\(index)")
                #expect(ack["rev"]?.int64Value == rev)
                base = rev
            }
            #expect(mirror.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Milk", "Eggs"])
            try await client.send(#"{"type":"unsubscribe","id":"s1"}"#)
            #expect(try await client.receive("unsubscribed")["id"] == "s1")
            try await client.send(#"{"type":"dispatch","id":"a9","action":{"type":"clearCompleted"}}"#)
            _ = try await client.receive("ack")
        }
    }

    @Test func focusedSubscriberHearsNothingOfOtherPaths() async throws {
        try await TestServer.with { server in
            let watcher = try await ProtocolClient.joined(server.url)
            try await watcher.send(#"{"type":"subscribe","id":"hits","path":"/counters/hits"}"#)
            #expect(try await watcher.receive("snapshot")["value"] == nil as JSONValue)

            let writer = try await ProtocolClient.joined(server.url)
            try await writer.send(#"{"type":"dispatch","id":"a1","action":{"type":"addTodo","title":"Milk"}}"#)
            _ = try await writer.receive("ack")
            // Patches go out before acks: a patch for the watcher would precede this value.
            try await watcher.send(#"{"type":"get","id":"g1","path":"/todos"}"#)
            let value = try await watcher.receive("value")
            #expect(value["value"]?.arrayValue?.count == 1)

            try await writer.send(#"{"type":"dispatch","id":"a2","action":{"type":"increment","counter":"hits","by":5}}"#)
            _ = try await writer.receive("ack")
            let patch = try await watcher.receive("patch")
            #expect(patch["id"] == "hits")
            #expect(patch["ops"] == [["op": "add", "path": "", "value": 5]] || patch["ops"] == [["op": "replace", "path": "", "value": 5]])
        }
    }

    @Test func getReadsAValueOrNull() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.joined(server.url)
            try await client.send(#"{"type":"dispatch","id":"a1","action":{"type":"increment","counter":"hits","by":12}}"#)
            let ack = try await client.receive("ack")
            try await client.send(#"{"type":"get","id":"g1","path":"/counters"}"#)
            let value = try await client.receive("value")
            #expect(value["id"] == "g1")
            #expect(value["rev"] == ack["rev"])
            #expect(value["value"] == ["hits": 12])
            try await client.send(#"{"type":"get","id":"g2","path":"/nothing/here"}"#)
            #expect(try await client.receive("value")["value"] == nil as JSONValue)
        }
    }

    @Test func appRejectionNamesItsCode() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.joined(server.url)
            try await client.send(#"{"type":"dispatch","id":"a18","action":{"type":"toggleTodo","id":"nope"}}"#)
            let reject = try await client.receive("reject")
            #expect(reject["id"] == "a18")
            #expect(reject["code"] == "not_found")
            #expect(reject["message"]?.stringValue?.contains("nope") == true)
        }
    }

    @Test func everyAcceptedActionIsOneRevisionAndRejectionsNone() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.joined(server.url)
            // The start is an ack's revision: by then the session's own join
            // (`sessionJoined`, journaled) is published too. A `get` may be
            // answered while that join's batch is still being made durable.
            try await client.send(#"{"type":"dispatch","id":"a-start","action":{"type":"increment","counter":"hits"}}"#)
            let start = try #require(try await client.receive("ack")["rev"]?.int64Value)
            var revisions: [Int64] = []
            for (index, action) in [
                #"{"type":"increment","counter":"hits"}"#, #"{"type":"toggleTodo","id":"nope"}"#,
                #"{"type":"postMessage","text":"hi"}"#, #"{"type":"increment","counter":"hits","by":2000000}"#,
                #"{"type":"addTodo","title":"Milk"}"#,
            ].enumerated() {
                try await client.send(#"{"type":"dispatch","id":"a\#(index)","action":\#(action)}"#)
                let answer = try await client.receive()
                if answer["type"] == "ack" { revisions.append(try #require(answer["rev"]?.int64Value)) }
            }
            #expect(revisions == [start + 1, start + 2, start + 3])
        }
    }

    @Test func unknownFieldsAreIgnored() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.connect(server.url)
            try await client.send(#"{"type":"hello","future":{"x":1},"name":"n"}"#)
            _ = try await client.receive("welcome")
            try await client.send(#"{"type":"subscribe","id":"s1","path":"/todos","color":"red","since":null}"#)
            #expect(try await client.receive("snapshot")["id"] == "s1")
            try await client.send(#"{"type":"dispatch","id":"a1","action":{"type":"addTodo","title":"Milk","extra":true},"priority":9}"#)
            _ = try await client.receive("patch")
            _ = try await client.receive("ack")
        }
    }
}
