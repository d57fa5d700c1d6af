import StateSyncCore
import StateSyncServer
import StateSyncTestSupport
import Testing
import WebSocket

/// A client that stops reading does not slow the others, and later catches
/// up with coalesced patches that chain without a gap.
@Suite(.timeLimit(.minutes(1)))
struct SlowConsumerEndToEndTests {
    @Test func stalledReaderIsSkippedThenCatchesUpWithACoalescedPatch() async throws {
        var configuration = TestServer.configuration
        configuration.session.outboundHighWaterMark = 64 * 1024
        configuration.session.messagesPerSecond = 100_000
        configuration.session.burst = 100_000
        try await TestServer.with(configuration) { server in
            // The slow client: 200 subscriptions to /chat, then it stops reading
            // (its inbound buffer holds 16 messages, then TCP backs up).
            let slow = try await ProtocolClient.joined(server.url)
            let subscriptions = 200
            for index in 0..<subscriptions {
                try await slow.send(.object(["type": "subscribe", "id": .string("c\(index)"), "path": "/chat"]))
            }
            var bases: [String: Int64] = [:]
            var mirror: JSONValue = []
            for _ in 0..<subscriptions {
                let snapshot = try await slow.receive("snapshot")
                bases[try #require(snapshot["id"]?.stringValue)] = snapshot["rev"]?.int64Value
                mirror = try #require(snapshot["value"])
            }

            // A fast client dispatches many large messages; each is ~200 × 600 bytes for the slow one.
            let fast = try await ProtocolClient.joined(server.url)
            let text = String(repeating: "z", count: 480)
            let actions = 300
            // One at a time (each its own revision and fan-out), so the stalled
            // connection's backlog outgrows the socket buffers.
            var lastRev: Int64 = 0
            for index in 0..<actions {
                try await fast.send(.object(["type": "dispatch", "id": .string("a\(index)"),
                                             "action": ["type": "say", "text": .string("\(index) \(text)")]]))
                lastRev = try #require(try await fast.receive("ack")["rev"]?.int64Value)
            }

            // Now read everything the slow client was sent, for one subscription in detail.
            try await slow.send(#"{"type":"get","id":"done","path":"/chat"}"#)
            var coalesced = false
            var patches = 0
            while true {
                let message = try await slow.receive()
                if message["type"] == "value" {
                    #expect(mirror == message["value"])
                    break
                }
                let id = try #require(message["id"]?.stringValue)
                if message["type"] == "snapshot" {
                    bases[id] = message["rev"]?.int64Value
                    if id == "c0" { mirror = try #require(message["value"]) }
                    continue
                }
                #expect(message["type"] == "patch")
                let base = try #require(message["base"]?.int64Value)
                let rev = try #require(message["rev"]?.int64Value)
                #expect(bases[id] == base, "subscription \(id) got a gap: base \(base) after \(bases[id] ?? -1)")
                bases[id] = rev
                if rev - base > 1 { coalesced = true }
                patches += 1
                if id == "c0" {
                    try JSONPatch(jsonValue: try #require(message["ops"])).apply(to: &mirror)
                }
            }
            #expect(coalesced, "no patch covered several revisions")
            #expect(patches < subscriptions * actions, "every patch was queued: \(patches)")
            #expect(bases.values.allSatisfy { $0 >= lastRev })
            let (_, metrics) = try await HTTPGet.get(port: server.port, path: "/metrics")
            let slowLine = metrics.split(separator: "\n").first { $0.hasPrefix("statesync_slow_consumers_total ") }
            #expect(slowLine != nil && slowLine != "statesync_slow_consumers_total 0")
        }
    }

    @Test func everySubscriberOfAPathGetsTheSamePatch() async throws {
        try await TestServer.with { server in
            var subscribers: [ProtocolClient] = []
            for _ in 0..<20 {
                let client = try await ProtocolClient.joined(server.url)
                try await client.send(#"{"type":"subscribe","id":"hits","path":"/counters/hits"}"#)
                _ = try await client.receive("snapshot")
                subscribers.append(client)
            }
            let writer = try await ProtocolClient.joined(server.url)
            try await writer.send(#"{"type":"dispatch","id":"a1","action":{"type":"increment","counter":"hits","by":3}}"#)
            let ack = try await writer.receive("ack")
            for subscriber in subscribers {
                let patch = try await subscriber.receive("patch")
                #expect(patch["rev"] == ack["rev"])
                #expect(patch["ops"]?[0]?["value"] == 3)
            }
        }
    }
}
