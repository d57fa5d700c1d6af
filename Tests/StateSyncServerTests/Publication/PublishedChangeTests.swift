import StateSyncJournal
import StateSyncCore
@testable import StateSyncServer
import Testing

/// Two changes merged for a busy shard publish as one: the later state at
/// both revisions, both changed regions, every answer in order.
@Suite struct PublishedChangeTests {
    private static let n = JSONPointer(tokens: ["n"])
    private static let m = JSONPointer(tokens: ["m"])

    private static func ack(_ id: String, _ revision: UInt64) -> DispatchAnswer {
        DispatchAnswer(sessionID: "s-1", actionID: id, outcome: .accepted(revision: revision), received: .now, isDuplicate: false)
    }

    @Test func twoChangesBecomeTheLaterStateAtBothRevisionsWithBothRegionsAndAnswers() {
        var change = PublishedChange(
            state: ["n": 1, "m": 0], revisions: 2, change: MirrorDelta(cost: 3, paths: [Self.n]), answers: [Self.ack("a1", 2)])
        change.append(PublishedChange(
            state: ["n": 1, "m": 5], revisions: 1, change: MirrorDelta(cost: 4, paths: [Self.m]), answers: [Self.ack("a2", 3)]))
        #expect(change.state == ["n": 1, "m": 5])
        #expect(change.revisions == 3)
        #expect(change.change.cost == 7)
        #expect(change.change.paths == [Self.n, Self.m])
        #expect(change.answers.map(\.actionID) == ["a1", "a2"])
    }

    @Test func answersAloneKeepTheStateTheyFollowAndAddNoRevision() {
        var change = PublishedChange(state: ["n": 1], revisions: 1, change: MirrorDelta(cost: 1, paths: [Self.n]))
        change.append(PublishedChange(state: nil, revisions: 0, answers: [Self.ack("dup", 1)]))
        #expect(change.state == ["n": 1])
        #expect(change.revisions == 1)
        #expect(change.change.paths == [Self.n])
        #expect(change.answers.map(\.actionID) == ["dup"])
    }

    @Test func aStateAfterAnswersAloneTakesItsOwnRegionsAndRevisions() {
        var change = PublishedChange(state: nil, revisions: 0, answers: [Self.ack("a1", 1)])
        #expect(!change.isEmpty)
        change.append(PublishedChange(state: ["n": 2], revisions: 2, change: MirrorDelta(cost: 1, paths: nil)))
        #expect(change.state == ["n": 2])
        #expect(change.revisions == 2)
        #expect(change.change.paths == nil, "a full encode stays a full encode")
        #expect(change.answers.map(\.actionID) == ["a1"])
    }

    @Test func aChangeWithoutAStateCountsNoRevisions() {
        let change = PublishedChange(state: nil, revisions: 4)
        #expect(change.revisions == 0)
        #expect(change.isEmpty)
    }
}
