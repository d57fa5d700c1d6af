import Foundation
import NIOCore
import StateSyncCore
import StateSyncTestSupport
import Testing
import WebSocket

extension AbuseTests {
    /// Hardening: every limit flag does what its help says.
    @Suite(.timeLimit(.minutes(1)))
    struct LimitFlagsAbuseTests {
        /// A client that takes large frames and does not compress.
        private static func client(_ url: String) async throws -> WebSocketConnection {
            var configuration = WebSocketConfiguration()
            configuration.maxFrameSize = 16 << 20
            configuration.maxMessageSize = 16 << 20
            configuration.compression = nil
            return try await WebSocketClient.connect(url: url, subprotocols: [], configuration: configuration)
        }

        @Test func maxMessageBytesRaisesTheFrameLimitToo() async throws {
            let (server, port) = try await ServeProcess.serving(["--echo", "--max-message-bytes", "\(8 << 20)"])
            let connection = try await Self.client("ws://127.0.0.1:\(port)/echo")
            // One 4 MiB frame: above the WebSocket layer's default frame limit (1 MiB).
            let payload = (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            try await connection.outbound.send(binary: ByteBuffer(bytes: payload))
            var messages = connection.inbound.makeAsyncIterator()
            let echoed = try #require(await messages.next(), "closed: \(String(describing: connection.outbound.closeStatus))")
            #expect(echoed.data.readableBytes == payload.count)
            #expect(Array(echoed.data.readableBytesView) == payload)

            // Above the configured limit: closed with 1009, as the help says.
            let other = try await Self.client("ws://127.0.0.1:\(port)/echo")
            do {
                try await other.outbound.send(binary: ByteBuffer(repeating: 1, count: (8 << 20) + 1))
            } catch {
                // The server may close (1009, on the frame's header) before the send completes.
            }
            var rest = other.inbound.makeAsyncIterator()
            while await rest.next() != nil {}
            #expect(other.outbound.closeStatus?.code == .messageTooBig)
            await server.stop()
        }

        @Test func messageRateFlagsSetTheBucket() async throws {
            let (server, port) = try await ServeProcess.serving(["--messages-per-second", "1", "--burst", "5"])
            let url = "ws://127.0.0.1:\(port)/sync"
            let client = try await ProtocolClient.joined(url, name: "eager")
            // Forty at once: with the default (bursts of 400) all would be answered;
            // with a bucket of 5 refilled at 1/s, at most 5 plus one a second of
            // the run are (the margin keeps a loaded machine from failing this).
            for index in 0..<40 {
                try await client.send(.object(["type": "get", "id": .string("g\(index)"), "path": "/counters"]))
            }
            var refused = 0
            for _ in 0..<40 where try await client.receive()["code"] == "rate_limited" { refused += 1 }
            #expect(refused >= 10)
            let bystander = try await ProtocolClient.joined(url, name: "bystander")
            try await bystander.send(#"{"type":"get","id":"b","path":"/counters"}"#)
            _ = try await bystander.receive("value")
            await server.stop()
        }

        /// `--max-queued-requests` bounds the engine's queue: with room for
        /// one request, four writers flooding at once are held back (their
        /// connections are not read while it is full; the metric counts each
        /// wait) and every action is still applied once; with the default
        /// room, the same load never fills it.
        @Test(arguments: [1, 16_384])
        func maxQueuedRequestsHoldsSessionsBackAndLosesNothing(queued: Int) async throws {
            let (server, port) = try await ServeProcess.serving([
                "--max-queued-requests", "\(queued)", "--messages-per-second", "100000", "--burst", "100000",
            ])
            let url = "ws://127.0.0.1:\(port)/sync"
            let perWriter = 300
            try await withThrowingTaskGroup(of: Void.self) { writers in
                for writer in 0..<4 {
                    writers.addTask {
                        let client = try await ProtocolClient.joined(url, name: "writer-\(writer)")
                        for index in 0..<perWriter {
                            try await client.send(#"{"type":"dispatch","id":"a\#(index)","action":{"type":"increment","counter":"w\#(writer)"}}"#)
                        }
                        for _ in 0..<perWriter { _ = try await client.receive("ack") }
                        try await client.close()
                    }
                }
                try await writers.waitForAll()
            }
            let bystander = try await ProtocolClient.joined(url, name: "bystander")
            try await bystander.send(#"{"type":"get","id":"g","path":"/counters"}"#)
            let counters = try await bystander.receive("value")["value"]
            #expect(counters == ["w0": 300, "w1": 300, "w2": 300, "w3": 300])
            let metrics = try await Curl.run(port: port, "/metrics").body
            let waits = metrics.split(separator: "\n")
                .first { $0.hasPrefix("statesync_engine_inbox_full_total ") }
                .flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
            if queued == 1 {
                #expect(waits >= 1, "\(metrics)")
            } else {
                #expect(waits == 0, "\(metrics)")
            }
            await server.stop()
        }

        @Test func maxNestingDepthRefusesDeeperMessages() async throws {
            let (server, port) = try await ServeProcess.serving(["--max-nesting-depth", "4"])
            let client = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", name: "nested")
            // Depth 5: message, action, and three levels inside it; the default (64) accepts it.
            try await client.send(#"{"type":"dispatch","id":"a","action":{"type":"postMessage","text":"hi","x":{"y":[[1]]}}}"#)
            let refused = try await client.receive("error")
            #expect(refused["code"] == "bad_json")
            try await client.send(#"{"type":"dispatch","id":"b","action":{"type":"postMessage","text":"hi"}}"#)
            #expect(try await client.receive("ack")["id"] == "b")
            await server.stop()
        }
    }
}
