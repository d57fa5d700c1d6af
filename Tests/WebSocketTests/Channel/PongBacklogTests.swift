import NIOCore
import NIOEmbedded
import Testing
@testable import WebSocket

/// Pongs a peer asks for and does not read: past a few unsent, only the
/// latest is kept (RFC 6455 §5.5.3), so a ping flood queues a bounded number.
@Suite struct PongBacklogTests {
    @Test func pastTheLimitTheLatestPongReplacesTheOneHeldBack() {
        var backlog = PongBacklog(limit: 2)
        let pongs = (0..<5).map { ByteBuffer(bytes: [0x8A, 1, UInt8($0)]) }
        #expect(backlog.answer(pongs[0]) == pongs[0])
        #expect(backlog.answer(pongs[1]) == pongs[1])
        #expect(backlog.answer(pongs[2]) == nil)
        #expect(backlog.answer(pongs[3]) == nil)
        #expect(backlog.unsent == 2 && backlog.heldBack == pongs[3])
        #expect(backlog.sent() == pongs[3], "the latest, once one was sent")
        #expect(backlog.sent() == nil)
        #expect(backlog.sent() == nil)
        #expect(backlog.unsent == 0)
        #expect(backlog.answer(pongs[4]) == pongs[4], "a peer that reads gets every pong again")
    }

    @Test func aReadOfManyPingsIsAnsweredWithTheFirstPongsAndTheLatest() throws {
        let (channel, _) = try makeEmbeddedServer()
        let pings = (0..<40).flatMap { clientFrame(opcode: 0x9, payload: [UInt8($0)]) }
        // One read: the pongs wait for its end, unsent.
        channel.pipeline.fireChannelRead(ByteBuffer(bytes: pings))
        channel.pipeline.fireChannelReadComplete()
        let written = try channel.readAllOutbound()
        let limit = PongBacklog().limit
        let expected = (0..<limit).map { UInt8($0) } + [39]
        #expect(written == expected.flatMap { [0x8A, 1, $0] })
    }

    @Test func aPeerThatReadsGetsAPongForEveryPing() throws {
        let (channel, _) = try makeEmbeddedServer()
        for index in 0..<100 {
            try channel.writeInbound(ByteBuffer(bytes: clientFrame(opcode: 0x9, payload: [UInt8(index)])))
            channel.pipeline.fireChannelReadComplete()
            #expect(try channel.readAllOutbound() == [0x8A, 1, UInt8(index)])
        }
    }
}
