import StateSyncJournal
import Logging
import MetricsTestKit
import StateSyncCore
import StateSyncProtocol
@testable import StateSyncServer
import Testing

/// Whole values too large to encode on the sequencer go to the
/// ``AnswerEncoder``, without breaking the order of a session's messages;
/// the answers held back for a slow session are bounded.
@Suite(.timeLimit(.minutes(1)))
struct LargeAnswerTests {
    /// Well above ``Publication/inlineValueBytes``.
    private static let big = JSONValue.string(String(repeating: "x", count: 100_000))
    private static let n = JSONPointer(tokens: ["n"])

    /// A publication whose drains arrive on `drains`.
    private static func publication(
        _ state: JSONValue, deferredLimits: (count: Int, bytes: Int) = (1_024, 1 << 20)
    ) -> (Publication, AsyncStream<String>) {
        let (drains, continuation) = AsyncStream.makeStream(of: String.self)
        let publication = Publication(
            state: state, revision: 0, history: (capacity: 16, budget: 1_000), deferredLimits: deferredLimits,
            metrics: ServerMetrics(factory: TestMetrics()), logger: quietLogger, drained: { continuation.yield($0) })
        return (publication, drains)
    }

    private static func join(_ id: String, to publication: inout Publication) -> RecordingSink {
        let sink = RecordingSink()
        publication.join(SessionRecord(info: SessionInfo(id: id, name: id), clientID: nil, role: .writer, sink: sink))
        return sink
    }

    private static func batch(_ state: JSONValue, answers: [DispatchAnswer] = []) -> PublishedChange {
        PublishedChange(state: state, revisions: 1, change: MirrorDelta(cost: 1, paths: [n]), answers: answers)
    }

    private static func ack(_ id: String, _ revision: UInt64) -> DispatchAnswer {
        DispatchAnswer(sessionID: "s-1", actionID: id, outcome: .accepted(revision: revision), received: .now, isDuplicate: false)
    }

    @Test func aLargeValueIsSentBeforeThePatchesAndAnswersThatFollowIt() async {
        var (publication, drains) = Self.publication(["n": 0, "big": Self.big])
        let sink = Self.join("s-1", to: &publication)
        publication.subscribe(sessionID: "s-1", id: "n", path: Self.n, since: nil)
        publication.get(sessionID: "s-1", id: "g1", path: .root)
        // Published while the value is encoded: held back, not sent ahead of it.
        publication.publish(Self.batch(["n": 1, "big": Self.big], answers: [Self.ack("a1", 1)]))
        publication.get(sessionID: "s-1", id: "g2", path: Self.n)
        var drained = drains.makeAsyncIterator()
        publication.drained(await drained.next() ?? "")
        #expect(sink.messages == [
            .snapshot(id: "n", rev: 0, value: 0),
            .value(id: "g1", rev: 0, value: ["n": 0, "big": Self.big]),
            .patch(id: "n", base: 0, rev: 1, ops: JSONPatch([.replace(path: .root, value: 1)])),
            .ack(id: "a1", rev: 1),
            .value(id: "g2", rev: 1, value: 1),
        ])
    }

    @Test func aLargeSnapshotIsFollowedByPatchesBasedOnIt() async {
        var (publication, drains) = Self.publication(["n": 0, "big": Self.big])
        let sink = Self.join("s-1", to: &publication)
        publication.subscribe(sessionID: "s-1", id: "all", path: .root, since: nil)
        publication.publish(Self.batch(["n": 1, "big": Self.big]))
        var drained = drains.makeAsyncIterator()
        publication.drained(await drained.next() ?? "")
        publication.publish(Self.batch(["n": 2, "big": Self.big]))
        #expect(sink.messages == [
            .snapshot(id: "all", rev: 0, value: ["n": 0, "big": Self.big]),
            .patch(id: "all", base: 0, rev: 1, ops: JSONPatch([.replace(path: Self.n, value: 1)])),
            .patch(id: "all", base: 1, rev: 2, ops: JSONPatch([.replace(path: Self.n, value: 2)])),
        ])
    }

    @Test func aHeldBackGetIsAnsweredWithTheValueWhenItIsSent() async {
        var (publication, _) = Self.publication(["n": 0])
        let sink = Self.join("s-1", to: &publication)
        sink.setWritable(false)
        publication.get(sessionID: "s-1", id: "g1", path: Self.n)
        publication.publish(Self.batch(["n": 1]))
        sink.drain()
        publication.drained("s-1")
        #expect(sink.messages == [.value(id: "g1", rev: 1, value: 1)])
    }

    @Test func aSessionHoldingBackMoreThanItsLimitIsClosedAndSentNothingMore() {
        var (publication, _) = Self.publication(["n": 0], deferredLimits: (count: 3, bytes: 1 << 20))
        let sink = Self.join("s-1", to: &publication)
        let other = Self.join("s-2", to: &publication)
        sink.setWritable(false)
        for index in 0..<3 { publication.get(sessionID: "s-1", id: "g\(index)", path: Self.n) }
        #expect(sink.closeReason == nil)
        publication.get(sessionID: "s-1", id: "g3", path: Self.n)
        #expect(sink.closeReason?.contains("too many answers held back") == true)
        #expect(publication.summaries().first?.deferredAnswers == 0)
        sink.drain()
        publication.drained("s-1")
        #expect(sink.messages.isEmpty)
        publication.get(sessionID: "s-2", id: "g", path: Self.n)
        #expect(other.messages == [.value(id: "g", rev: 0, value: 0)])
    }

    @Test func heldBackBytesAreBoundedToo() {
        var (publication, _) = Self.publication(["n": 0], deferredLimits: (count: 1_000, bytes: 100))
        let sink = Self.join("s-1", to: &publication)
        sink.setWritable(false)
        publication.get(sessionID: "s-1", id: String(repeating: "a", count: 60), path: Self.n)
        #expect(sink.closeReason == nil)
        publication.get(sessionID: "s-1", id: String(repeating: "b", count: 60), path: Self.n)
        #expect(sink.closeReason != nil)
    }
}
