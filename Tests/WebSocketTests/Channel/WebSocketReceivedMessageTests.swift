import NIOCore
import NIOEmbedded
import Synchronization
import Testing
@testable import WebSocket

/// A task consumer learns when each message arrived, not when it got to it.
@Suite(.timeLimit(.minutes(1))) struct WebSocketReceivedMessageTests {
    @Test func messagesCarryTheTimeTheyWereReadNotTheTimeTheyAreConsumed() async throws {
        let start = ContinuousClock.now
        let time = Mutex(start)
        var options = WebSocketChannelOptions()
        options.arrivalClock = ArrivalClock { time.withLock { $0 } }
        let (channel, _, _, inbound) = try await WebSocketBackpressureTests.makeChannel(options: options)

        // Three messages one second apart, none consumed yet (a stalled task).
        for index in 0..<3 {
            time.withLock { $0 = start + .seconds(index) }
            try await channel.writeInbound(ByteBuffer(bytes: clientFrame(opcode: 0x1, payload: utf8("m\(index)"))))
        }
        // A fragmented message arrives when its last frame is read.
        time.withLock { $0 = start + .seconds(3) }
        try await channel.writeInbound(ByteBuffer(bytes: clientFrame(fin: false, opcode: 0x1, payload: utf8("fir"))))
        time.withLock { $0 = start + .seconds(4) }
        try await channel.writeInbound(ByteBuffer(bytes: clientFrame(opcode: 0x0, payload: utf8("st"))))
        // Two messages in one read arrived together.
        time.withLock { $0 = start + .seconds(5) }
        try await channel.writeInbound(ByteBuffer(
            bytes: clientFrame(opcode: 0x1, payload: utf8("a")) + clientFrame(opcode: 0x1, payload: utf8("b"))))

        time.withLock { $0 = start + .seconds(60) }  // the consumer comes back much later
        var iterator = inbound.makeAsyncIterator()
        var received: [WebSocketReceivedMessage] = []
        for _ in 0..<6 {
            received.append(try #require(await iterator.nextReceived()))
        }
        #expect(received.map(\.message) == ["m0", "m1", "m2", "first", "a", "b"].map(WebSocketMessage.text))
        #expect(received.map { start.duration(to: $0.receivedAt) } == [0, 1, 2, 4, 5, 5].map(Duration.seconds))
    }

    @Test func nextAndNextReceivedShareOneIteration() async throws {
        let (channel, _, _, inbound) = try await WebSocketBackpressureTests.makeChannel(options: .init())
        for index in 0..<2 {
            try await channel.writeInbound(ByteBuffer(bytes: clientFrame(opcode: 0x2, payload: [UInt8(index)])))
        }
        var iterator = inbound.makeAsyncIterator()
        #expect(await iterator.next() == .binary(ByteBuffer(bytes: [0])))
        #expect(await iterator.nextReceived()?.message == .binary(ByteBuffer(bytes: [1])))
    }
}
