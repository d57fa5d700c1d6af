import StateSyncCore
import StateSyncJournal
@testable import StateSyncServer
import Testing

/// A session's dispatches keep the order it sent them in across the two
/// routes of a cluster's node: sequenced here, or forwarded to the writer.
@Suite struct DispatchRoutesTests {
    private static let address = "127.0.0.1:9001"
    private static let writer = DispatchRoutes.Route.writer(address: address)

    private static func unanswered(_ id: String, route: DispatchRoute = .afterUnansweredForward) -> DispatchRoutes.Unanswered {
        DispatchRoutes.Unanswered(id: id, action: ["type": "increment"], received: .now, route: route, reason: "no answer")
    }

    private static func ack(_ id: String, of sessionID: String = "s") -> DispatchAnswer {
        DispatchAnswer(sessionID: sessionID, actionID: id, outcome: .accepted(revision: 1), received: .now, isDuplicate: false)
    }

    @Test func aSessionWithNothingOnItsWayTakesEitherRoute() {
        var routes = DispatchRoutes()
        #expect(routes.isSettled("s"))
        let forward = routes.admit("a", of: "s", wanting: Self.writer)
        #expect(forward == .forward(address: Self.address, onLink: nil))
        #expect(routes.isSettled("s"), "admitting a forward records nothing until it is sent")
        let here = routes.admit("b", of: "t", wanting: .here)
        #expect(here == .sequenceHere)
        #expect(!routes.isSettled("t"))
        #expect(routes.isSettled("s"), "another session's dispatch does not hold this one")
    }

    @Test func aDispatchDoesNotOvertakeItsSessionsEarlierOnesOnTheOtherRoute() {
        var routes = DispatchRoutes()
        let first = routes.admit("a", of: "s", wanting: .here)
        #expect(first == .sequenceHere)
        let overtaking = routes.admit("b", of: "s", wanting: Self.writer)
        #expect(overtaking == .wait)
        let sameRoute = routes.admit("c", of: "s", wanting: .here)
        #expect(sameRoute == .sequenceHere, "the same route does not wait")
        routes.answered([Self.ack("a")])
        let stillBehind = routes.admit("b", of: "s", wanting: Self.writer)
        #expect(stillBehind == .wait, "c is still unanswered")
        routes.answered([Self.ack("c")])
        #expect(routes.isSettled("s"))
        let forward = routes.admit("b", of: "s", wanting: Self.writer)
        #expect(forward == .forward(address: Self.address, onLink: nil))
        routes.forwarded("b", of: "s", to: Self.address, onLink: 7)
        let backHere = routes.admit("d", of: "s", wanting: .here)
        #expect(backHere == .wait)
        let otherWriter = routes.admit("d", of: "s", wanting: .writer(address: "127.0.0.1:9002"))
        #expect(otherWriter == .wait, "another writer is another route")
        let sameLink = routes.admit("d", of: "s", wanting: Self.writer)
        #expect(sameLink == .forward(address: Self.address, onLink: 7), "behind its session's forwards, on their link")
        let answered = routes.writerAnswered("b", of: "s")
        #expect(answered.isEmpty)
        #expect(routes.isSettled("s"))
    }

    @Test func forwardsWithNoAnswerAreSequencedHereInTheOrderSentOnceNoneIsOnItsWay() {
        var routes = DispatchRoutes()
        for id in ["x0", "x1", "x2", "x3"] { routes.forwarded(id, of: "s", to: Self.address, onLink: 1) }
        // Failures arrive in any order (a link's pending dispatches are a dictionary).
        let afterX2 = routes.noAnswer(Self.unanswered("x2"), of: "s")
        let afterX0 = routes.noAnswer(Self.unanswered("x0"), of: "s")
        #expect(afterX2.isEmpty && afterX0.isEmpty)
        let next = routes.admit("x4", of: "s", wanting: Self.writer)
        #expect(next == .wait, "a forward failed: the next one must not overtake it")
        let afterX1 = routes.writerAnswered("x1", of: "s")
        #expect(afterX1.isEmpty, "x3 is still on its way")
        let here = routes.noAnswer(Self.unanswered("x3", route: .writerIsOlder), of: "s")
        #expect(here.map(\.id) == ["x0", "x2", "x3"])
        #expect(here.map(\.route) == [.afterUnansweredForward, .afterUnansweredForward, .writerIsOlder])
        // Now sequenced here: counted until answered.
        let stillBehind = routes.admit("x4", of: "s", wanting: Self.writer)
        #expect(stillBehind == .wait)
        routes.answered([Self.ack("x0"), Self.ack("x2")])
        #expect(!routes.isSettled("s"))
        routes.answered([Self.ack("x3")])
        #expect(routes.isSettled("s"))
    }

    @Test func answersOfOtherSessionsOrIdsAndUnknownForwardsChangeNothing() {
        var routes = DispatchRoutes()
        let here = routes.admit("a", of: "s", wanting: .here)
        #expect(here == .sequenceHere)
        routes.answered([Self.ack("a", of: "t"), Self.ack("b")])
        #expect(!routes.isSettled("s"))
        let notForwarded = routes.writerAnswered("a", of: "s") + routes.noAnswer(Self.unanswered("a"), of: "s")
        #expect(notForwarded.isEmpty, "a was sequenced here, not forwarded")
        #expect(!routes.isSettled("s"))
        routes.answered([Self.ack("a")])
        #expect(routes.isSettled("s"))
    }

    @Test func dispatchesWithdrawnToBeSequencedAgainMayTakeTheOtherRoute() {
        var routes = DispatchRoutes()
        for id in ["a", "b"] { _ = routes.admit(id, of: "s", wanting: .here) }
        let behind = routes.admit("c", of: "s", wanting: Self.writer)
        #expect(behind == .wait)
        // Their batch was refused: both are withdrawn, then each goes where a new one would.
        routes.withdraw("a", of: "s")
        routes.withdraw("b", of: "s")
        let first = routes.admit("a", of: "s", wanting: Self.writer)
        #expect(first == .forward(address: Self.address, onLink: nil))
        routes.forwarded("a", of: "s", to: Self.address, onLink: 3)
        let second = routes.admit("b", of: "s", wanting: Self.writer)
        #expect(second == .forward(address: Self.address, onLink: 3))
    }

    @Test func aSessionThatLeftIsForgotten() {
        var routes = DispatchRoutes()
        routes.forwarded("a", of: "s", to: Self.address, onLink: 1)
        let behind = routes.admit("b", of: "s", wanting: .here)
        #expect(behind == .wait)
        routes.left("s")
        #expect(routes.isSettled("s"))
        let afterLeaving = routes.admit("b", of: "s", wanting: .here)
        #expect(afterLeaving == .sequenceHere)
    }
}
