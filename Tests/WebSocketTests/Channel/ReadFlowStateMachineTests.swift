import Testing
@testable import WebSocket

/// When a connection reads and flushes, with no channel: backpressure from
/// the receiver, reads held while the channel is not writable, flushes at
/// the end of a read burst, and no reading after close.
@Suite struct ReadFlowStateMachineTests {
    // MARK: Reads

    @Test(arguments: [true, false])
    func readsFreelyWhileNothingHoldsThem(server: Bool) {
        var flow = ReadFlowStateMachine(readsOnlyWhenWritable: server)
        #expect(flow.read(channelWritable: true) == .read)
        #expect(flow.read(channelWritable: true) == .read)
    }

    @Test func aReceiverBehindHoldsReadsUntilItCatchesUp() {
        var flow = ReadFlowStateMachine(readsOnlyWhenWritable: false)
        flow.receiverFellBehind()
        #expect(flow.read(channelWritable: true) == .doNothing)
        #expect(flow.receiverCaughtUp(channelWritable: true) == .read, "the held-back read was not released")
        #expect(flow.read(channelWritable: true) == .read)
    }

    @Test func catchingUpWithNoReadHeldBackReadsNothing() {
        var flow = ReadFlowStateMachine(readsOnlyWhenWritable: false)
        flow.receiverFellBehind()
        #expect(flow.receiverCaughtUp(channelWritable: true) == .doNothing)
    }

    @Test func aHeldBackReadIsMadeOnce() {
        var flow = ReadFlowStateMachine(readsOnlyWhenWritable: false)
        flow.receiverFellBehind()
        #expect(flow.read(channelWritable: true) == .doNothing)
        #expect(flow.read(channelWritable: true) == .doNothing)
        #expect(flow.receiverCaughtUp(channelWritable: true) == .read)
        #expect(flow.channelWritabilityChanged(channelWritable: true) == .doNothing)
        #expect(flow.resumeReading(channelWritable: true) == .doNothing)
    }

    @Test func aHoldByTheReceiverLastsUntilItResumes() {
        var flow = ReadFlowStateMachine(readsOnlyWhenWritable: false)
        flow.holdReading()
        #expect(flow.read(channelWritable: true) == .doNothing)
        #expect(flow.channelWritabilityChanged(channelWritable: true) == .doNothing)
        #expect(flow.resumeReading(channelWritable: true) == .read)
    }

    @Test func readsWaitUntilEveryHoldIsGone() {
        var flow = ReadFlowStateMachine(readsOnlyWhenWritable: true)
        flow.holdReading()
        flow.receiverFellBehind()
        #expect(flow.read(channelWritable: false) == .doNothing)
        #expect(flow.resumeReading(channelWritable: false) == .doNothing, "the receiver is still behind")
        #expect(flow.receiverCaughtUp(channelWritable: false) == .doNothing, "the channel is not writable")
        #expect(flow.channelWritabilityChanged(channelWritable: true) == .read)
    }

    @Test func theServerHoldsReadsWhileTheChannelIsNotWritable() {
        var flow = ReadFlowStateMachine(readsOnlyWhenWritable: true)
        #expect(flow.read(channelWritable: false) == .doNothing)
        #expect(flow.channelWritabilityChanged(channelWritable: false) == .doNothing)
        #expect(flow.channelWritabilityChanged(channelWritable: true) == .read)
    }

    @Test func theClientReadsWhetherOrNotTheChannelIsWritable() {
        var flow = ReadFlowStateMachine(readsOnlyWhenWritable: false)
        #expect(flow.read(channelWritable: false) == .read)
        flow.holdReading()
        #expect(flow.read(channelWritable: false) == .doNothing)
        #expect(flow.resumeReading(channelWritable: false) == .read)
    }

    @Test func aReadRequestedDuringABurstIsHeldByWhatHoldsReads() {
        var flow = ReadFlowStateMachine(readsOnlyWhenWritable: false)
        #expect(flow.channelRead() == .decode)
        #expect(flow.read(channelWritable: true) == .read, "a burst alone holds no read")
        flow.receiverFellBehind()  // a message of this burst filled the receiver
        #expect(flow.read(channelWritable: true) == .doNothing)
        #expect(flow.channelReadComplete() == .doNothing)
        #expect(flow.receiverCaughtUp(channelWritable: true) == .read)
    }

    // MARK: Bursts and flushing

    @Test func writesOutsideABurstFlushAtOnce() {
        var flow = ReadFlowStateMachine(readsOnlyWhenWritable: true)
        #expect(flow.write() == .flush)
        #expect(flow.write() == .flush)
    }

    @Test func writesInABurstFlushOnceAtItsEnd() {
        var flow = ReadFlowStateMachine(readsOnlyWhenWritable: true)
        #expect(flow.channelRead() == .decode)
        #expect(flow.write() == .doNothing)
        #expect(flow.channelRead() == .decode, "a second read of the same burst")
        #expect(flow.write() == .doNothing)
        #expect(flow.channelReadComplete() == .flush)
        #expect(flow.write() == .flush, "the burst is over")
    }

    @Test func aBurstWithoutWritesFlushesNothing() {
        var flow = ReadFlowStateMachine(readsOnlyWhenWritable: true)
        #expect(flow.channelRead() == .decode)
        #expect(flow.channelReadComplete() == .doNothing)
        #expect(flow.channelReadComplete() == .doNothing)
    }

    // MARK: Closing

    @Test func bytesAfterTheStopAreIgnored() {
        var flow = ReadFlowStateMachine(readsOnlyWhenWritable: true)
        #expect(!flow.isStopped)
        flow.stopReading()
        #expect(flow.isStopped)
        #expect(flow.channelRead() == .ignore)
        #expect(flow.write() == .flush, "an ignored read starts no burst")
    }

    @Test func stoppingDuringABurstStillFlushesItsWrites() {
        var flow = ReadFlowStateMachine(readsOnlyWhenWritable: true)
        #expect(flow.channelRead() == .decode)
        #expect(flow.write() == .doNothing)
        flow.stopReading()  // the peer's close frame was read
        #expect(flow.channelReadComplete() == .flush)
    }

    // MARK: Pongs

    @Test func aServerHoldsReadingWhilePongsAreBackedUpAClientReadsOn() {
        var server = ReadFlowStateMachine(readsOnlyWhenWritable: true)
        server.pongsBackedUp()
        #expect(server.read(channelWritable: true) == .doNothing, "a ping flood stalls its sender")
        #expect(server.pongsCaughtUp(channelWritable: true) == .read, "the held-back read, once the pongs are sent")

        var client = ReadFlowStateMachine(readsOnlyWhenWritable: false)
        client.pongsBackedUp()
        #expect(client.read(channelWritable: true) == .read)
    }
}
