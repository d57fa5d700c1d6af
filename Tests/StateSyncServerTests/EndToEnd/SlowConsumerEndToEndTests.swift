import StateSyncCore
import StateSyncServer
import StateSyncTestSupport
import TestProcessSupport
import Testing
import WebSocket

/// A client that stops reading does not slow the others, and later catches
/// up with coalesced patches that chain without a gap. Three minutes: the
/// stalled-reader test makes 300 round trips one after the other, a few
/// seconds' work alone and 74 s once inside the whole suite.
@Suite(.timeLimit(.minutes(3)))
struct SlowConsumerEndToEndTests {
    @Test func stalledReaderIsSkippedThenCatchesUpWithACoalescedPatch() async throws {
        var configuration = TestServer.configuration
        configuration.session.outboundHighWaterMark = 64 * 1024
        configuration.session.messagesPerSecond = 100_000
        configuration.session.burst = 100_000
        try await TestServer.with(configuration) { server in
            // The slow client: 20 subscriptions to /chat, then it stops reading.
            let subscriptions = 20
            let slow = try await onOwnThread { try StalledClient(port: server.port) }
            let subscribed = try await onOwnThread {
                try slow.send(#"{"type":"hello"}"#)
                _ = try slow.receive()
                for index in 0..<subscriptions {
                    try slow.send(#"{"type":"subscribe","id":"c\#(index)","path":"/chat"}"#)
                }
                return try (0..<subscriptions).map { _ in try slow.receive() }
            }
            var bases: [String: Int64] = [:]
            for snapshot in subscribed {
                #expect(snapshot["type"] == "snapshot")
                bases[try #require(snapshot["id"]?.stringValue)] = snapshot["rev"]?.int64Value
            }
            var mirror = try #require(subscribed.last?["value"])

            // A fast client dispatches large messages; each is 20 × 600 bytes
            // for the slow one.
            let fast = try await ProtocolClient.joined(server.url)
            let text = String(repeating: "z", count: 480)
            let actions = 300
            // One at a time (each its own revision and fan-out), so the stalled
            // connection's backlog outgrows the socket buffers.
            var lastRev: Int64 = 0
            for index in 0..<actions {
                try await fast.send(.object(["type": "dispatch", "id": .string("a\(index)"),
                                             "action": ["type": "postMessage", "text": .string("\(index) \(text)")]]))
                lastRev = try #require(try await fast.receive("ack")["rev"]?.int64Value)
            }

            // Now read everything the slow client was sent, up to the answer
            // to a `get`, which comes after it all.
            let caughtUp = try await onOwnThread {
                try slow.send(#"{"type":"get","id":"done","path":"/chat"}"#)
                var messages: [JSONValue] = []
                while messages.last?["type"] != "value" { messages.append(try slow.receive()) }
                return messages
            }
            var coalesced = false
            var patches = 0
            for message in caughtUp.dropLast() {
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
            #expect(mirror == caughtUp.last?["value"])
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

/// A protocol client over a ``RawSocket`` with a 4 KiB receive buffer: once
/// it stops reading, the server's socket backs up after a few hundred KiB,
/// not the tens of MiB a receive buffer the kernel tunes can take in. Its
/// calls block: make them on a thread of their own (`onOwnThread`).
private final class StalledClient: @unchecked Sendable {
    private let socket: RawSocket
    private var reader = ServerFrameReader()

    /// Connects and sends the upgrade request (its response is read with the first message).
    init(port: Int) throws {
        socket = try RawSocket(port: port, receiveBuffer: 4_096)
        try send(raw: Array(WireFrames.upgradeRequest().utf8))
    }

    /// Sends `text` (under 126 bytes) as one text message.
    func send(_ text: String) throws {
        try send(raw: WireFrames.text(text))
    }

    private func send(raw bytes: [UInt8]) throws {
        guard socket.send(bytes) else { throw StalledClientFailure(description: "the server stopped taking what the client sends") }
    }

    /// The next message, parsed.
    func receive() throws -> JSONValue {
        while true {
            if let frame = reader.next() {
                guard frame.opcode == 0x1 else {
                    throw StalledClientFailure(description: "a frame of opcode \(frame.opcode) instead of a message: \(frame.text)")
                }
                return try JSONParser().parse(frame.payload)
            }
            guard let chunk = socket.receive(timeout: .seconds(20)), !chunk.isEmpty else {
                throw StalledClientFailure(description: "the server closed the connection or sent nothing for 20 s")
            }
            reader.append(chunk)
        }
    }
}

/// What went wrong for a ``StalledClient``.
private struct StalledClientFailure: Error, CustomStringConvertible {
    let description: String
}
