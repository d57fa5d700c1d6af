import NIOCore
import NIOEmbedded
import Synchronization
import Testing
@testable import WebSocket

/// A connection's own event-loop handler: it keeps what it received (with
/// the arrival times) and holds reading when told to.
final class KeepingHandler: WebSocketEventLoopHandler {
    let outbound: WebSocketOutbound
    private let state = Mutex<(received: [WebSocketReceivedMessage], closed: Int)>(([], 0))
    private let holdsAfterFirst: Bool

    init(outbound: WebSocketOutbound, holdsAfterFirst: Bool) {
        self.outbound = outbound
        self.holdsAfterFirst = holdsAfterFirst
    }

    var received: [WebSocketReceivedMessage] { state.withLock { $0.received } }
    var closed: Int { state.withLock { $0.closed } }

    func webSocket(_ outbound: WebSocketOutbound, received message: WebSocketMessage) {
        Issue.record("the channel handler must deliver arrival times to an event-loop handler")
    }

    func webSocket(_ outbound: WebSocketOutbound, received message: WebSocketReceivedMessage) {
        let count = state.withLock { state in
            state.received.append(message)
            return state.received.count
        }
        if holdsAfterFirst, count == 1 { outbound.holdReading() }
    }

    func webSocketClosed(_ outbound: WebSocketOutbound, status: WebSocketCloseStatus) {
        state.withLock { $0.closed += 1 }
    }
}

/// A clock the test sets.
final class SetClock: Sendable {
    private let instant: Mutex<ContinuousClock.Instant>
    init(_ start: ContinuousClock.Instant) { instant = Mutex(start) }
    var now: ContinuousClock.Instant { instant.withLock { $0 } }
    func set(_ now: ContinuousClock.Instant) { instant.withLock { $0 = now } }
}

@Suite(.timeLimit(.minutes(1))) struct WebSocketPerConnectionHandlerTests {
    /// A server channel whose handler is made for the connection; messages
    /// are stamped by `clock`.
    static func makeChannel(
        clock: SetClock, holdsAfterFirst: Bool
    ) async throws -> (NIOAsyncTestingChannel, ReadCounter, WebSocketOutbound, KeepingHandler) {
        let channel = NIOAsyncTestingChannel()
        let reads = ReadCounter()
        let anchor = UpgradeAnchor()
        try await channel.pipeline.addHandlers([reads, anchor])
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1))
        let options = {
            var options = WebSocketChannelOptions()
            options.arrivalClock = ArrivalClock { clock.now }
            return options
        }()
        let made = Mutex<KeepingHandler?>(nil)
        let outbound = try await channel.testingEventLoop.executeInContext {
            try WebSocketChannelHandler<EventLoopDelivery>.install(
                on: channel, after: anchor, role: .server, configuration: .init(compression: nil), options: options,
                subprotocol: nil, compression: nil
            ) { outbound in
                let handler = KeepingHandler(outbound: outbound, holdsAfterFirst: holdsAfterFirst)
                made.withLock { $0 = handler }
                return handler
            }
        }
        let handler = try #require(made.withLock { $0 })
        #expect(handler.outbound === outbound, "the handler was not made with the connection's outbound writer")
        return (channel, reads, outbound, handler)
    }

    @Test func messagesComeWithTheTimeTheirReadArrived() async throws {
        let start = ContinuousClock.now
        let clock = SetClock(start)
        let (channel, _, _, handler) = try await Self.makeChannel(clock: clock, holdsAfterFirst: false)
        try await channel.writeInbound(ByteBuffer(bytes: clientFrame(opcode: 0x2, payload: [1]) + clientFrame(opcode: 0x2, payload: [2])))
        clock.set(start + .seconds(5))
        try await channel.writeInbound(ByteBuffer(bytes: clientFrame(opcode: 0x2, payload: [3])))
        let received = handler.received
        #expect(received.map(\.message) == [1, 2, 3].map { .binary(ByteBuffer(bytes: [$0])) })
        #expect(received.map(\.receivedAt) == [start, start, start + .seconds(5)])
    }

    @Test func heldReadingStopsSocketReadsButDeliversTheCurrentRead() async throws {
        let (channel, reads, outbound, handler) = try await Self.makeChannel(clock: SetClock(.now), holdsAfterFirst: true)
        try await channel.writeInbound(ByteBuffer(bytes: clientFrame(opcode: 0x2, payload: [1]) + clientFrame(opcode: 0x2, payload: [2])))
        #expect(handler.received.count == 2, "messages already read were not delivered after the hold")

        let before = reads.count
        channel.read()
        await channel.testingEventLoop.run()
        #expect(reads.count == before, "read() reached the socket while the handler holds reading")

        outbound.resumeReading()
        await channel.testingEventLoop.run()
        #expect(reads.count == before + 1, "the held-back read() was not released")
    }

    @Test func theHandlerIsToldOfTheCloseOnce() async throws {
        let (channel, _, _, handler) = try await Self.makeChannel(clock: SetClock(.now), holdsAfterFirst: false)
        try await channel.close()
        await channel.testingEventLoop.run()
        #expect(handler.closed == 1)
    }
}
