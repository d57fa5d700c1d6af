import StateSyncJournal
import Logging
import MetricsTestKit
import StateSyncCore
import StateSyncProtocol
@testable import StateSyncServer
import Synchronization
import Testing

@Suite struct PublicationTests {
    private let metrics = TestMetrics()
    private let drainedSessions = DrainLog()

    private func publication(_ state: JSONValue = ["n": 0]) -> Publication {
        let log = drainedSessions
        return Publication(
            state: state, revision: 0, history: (capacity: 16, budget: 1_000), metrics: ServerMetrics(factory: metrics),
            logger: quietLogger, drained: { log.append($0) })
    }

    private func join(_ id: String, to publication: inout Publication) -> RecordingSink {
        let sink = RecordingSink()
        publication.join(SessionRecord(info: SessionInfo(id: id, name: id), clientID: nil, role: .writer, sink: sink))
        return sink
    }

    private static func batch(_ state: JSONValue, revisions: Int, answers: [DispatchAnswer] = []) -> PublishedChange {
        PublishedChange(
            state: state, revisions: revisions, change: MirrorDelta(cost: 1, paths: [JSONPointer(tokens: ["n"])]), answers: answers)
    }

    private static func ack(_ id: String, _ revision: UInt64, to session: String = "s-1") -> DispatchAnswer {
        DispatchAnswer(sessionID: session, actionID: id, outcome: .accepted(revision: revision), received: .now, isDuplicate: false)
    }

    @Test func aSubscriptionGetsASnapshotThenPatchesBeforeTheirAck() {
        var publication = publication()
        let sink = join("s-1", to: &publication)
        publication.subscribe(sessionID: "s-1", id: "n", path: JSONPointer(tokens: ["n"]), since: nil)
        publication.publish(Self.batch(["n": 1], revisions: 1, answers: [Self.ack("a1", 1)]))
        #expect(sink.messages == [
            .snapshot(id: "n", rev: 0, value: 0),
            .patch(id: "n", base: 0, rev: 1, ops: JSONPatch([.replace(path: .root, value: 1)])),
            .ack(id: "a1", rev: 1),
        ])
        #expect(publication.revision == 1)
    }

    @Test func aResumeWithinTheWindowGetsOnlyWhatItMissed() {
        var publication = publication()
        let sink = join("s-1", to: &publication)
        publication.publish(Self.batch(["n": 1], revisions: 1))
        publication.publish(Self.batch(["n": 2], revisions: 1))
        publication.subscribe(sessionID: "s-1", id: "n", path: JSONPointer(tokens: ["n"]), since: 1)
        #expect(sink.messages == [.patch(id: "n", base: 1, rev: 2, ops: JSONPatch([.replace(path: .root, value: 2)]))])
    }

    @Test func aSlowSessionIsAskedOnceToReportTheDrainThenGetsOneCoalescedPatchAndItsHeldAnswers() throws {
        var publication = publication()
        let slow = join("s-1", to: &publication)
        let fast = join("s-2", to: &publication)
        publication.subscribe(sessionID: "s-1", id: "n", path: JSONPointer(tokens: ["n"]), since: nil)
        publication.subscribe(sessionID: "s-2", id: "n", path: JSONPointer(tokens: ["n"]), since: nil)
        slow.setWritable(false)
        publication.publish(Self.batch(["n": 1], revisions: 1, answers: [Self.ack("a1", 1)]))
        publication.publish(Self.batch(["n": 2], revisions: 1, answers: [Self.ack("a2", 2)]))
        #expect(slow.messages.count == 1)
        #expect(fast.messages.count == 3)
        #expect(try metrics.expectCounter("statesync_slow_consumers_total").totalValue == 1)
        #expect(publication.summaries().first?.deferredAnswers == 2)

        slow.drain()
        #expect(drainedSessions.ids == ["s-1"])
        publication.drained("s-1")
        #expect(Array(slow.messages.dropFirst()) == [
            .patch(id: "n", base: 0, rev: 2, ops: JSONPatch([.replace(path: .root, value: 2)])),
            .ack(id: "a1", rev: 1),
            .ack(id: "a2", rev: 2),
        ])
        #expect(publication.summaries().first?.isSlow == false)
    }

    @Test func aLeavingSessionIsForgottenWithItsSubscriptions() {
        var publication = publication()
        let sink = join("s-1", to: &publication)
        publication.subscribe(sessionID: "s-1", id: "n", path: JSONPointer(tokens: ["n"]), since: nil)
        #expect(publication.leave("s-1")?.info.id == "s-1")
        publication.publish(Self.batch(["n": 1], revisions: 1))
        #expect(sink.messages.count == 1)
        #expect(publication.trie.node(at: JSONPointer(tokens: ["n"])) == nil)
        #expect(publication.summaries().isEmpty)
    }

    @Test func getAnswersThePublishedValueAndUnsubscribeConfirms() {
        var publication = publication(["n": 5])
        let sink = join("s-1", to: &publication)
        publication.get(sessionID: "s-1", id: "g", path: JSONPointer(tokens: ["n"]))
        publication.get(sessionID: "s-1", id: "h", path: JSONPointer(tokens: ["missing"]))
        publication.unsubscribe(sessionID: "s-1", id: "never-opened")
        #expect(sink.messages == [.value(id: "g", rev: 0, value: 5), .value(id: "h", rev: 0, value: .null), .unsubscribed(id: "never-opened")])
    }
}

/// The session ids a publication's drain callback was called with.
private final class DrainLog: Sendable {
    private let log = Mutex<[String]>([])
    func append(_ id: String) { log.withLock { $0.append(id) } }
    var ids: [String] { log.withLock { $0 } }
}
