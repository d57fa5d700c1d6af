import StateSyncCore
@testable import StateSyncServer
import Testing

/// Requests held until what their session caused is published, or until
/// the session's dispatches are all on one route: each session's stay in
/// the order it sent them.
@Suite struct OwnWritesTests {
    private static func dispatch(_ id: String) -> SessionRequest { .dispatch(id: id, action: ["type": "increment"]) }
    private static func get(_ id: String) -> SessionRequest { .get(id: id, path: JSONPointer.root) }

    private static func held(_ request: SessionRequest, of sessionID: String, waitsForRoutes: Bool = false) -> OwnWrites.HeldRequest {
        OwnWrites.HeldRequest(sessionID: sessionID, request: request, received: .now, revision: 0, waitsForRoutes: waitsForRoutes)
    }

    @Test func aDispatchWaitingForItsRoutesHoldsItsSessionsLaterRequestsOnly() {
        var writes = OwnWrites()
        writes.holdAhead([Self.held(Self.dispatch("d1"), of: "s", waitsForRoutes: true)])
        let behind = writes.hold(Self.get("g1"), from: "s", received: .now, published: 0)
        #expect(behind, "behind the waiting dispatch")
        let other = writes.hold(Self.get("g2"), from: "t", received: .now, published: 0)
        #expect(!other, "another session is not held")
        let unsettled = writes.release(published: 0, routesSettled: { _ in false })
        #expect(unsettled.isEmpty)
        let released = writes.release(published: 0, routesSettled: { $0 == "s" })
        #expect(released.map(\.request.id) == ["d1", "g1"])
    }

    @Test func requestsHeldAgainGoAheadOfTheirSessionsRequestsStillHeld() {
        var writes = OwnWrites()
        writes.caused(5, by: "s")
        writes.holdAhead([Self.held(Self.dispatch("d1"), of: "s", waitsForRoutes: true)])
        let d2Held = writes.hold(Self.dispatch("d2"), from: "s", received: .now, published: 0)
        #expect(d2Held)
        let otherHeld = writes.hold(Self.get("g1"), from: "t", received: .now, published: 0)
        #expect(!otherHeld)
        let released = writes.release(published: 0, routesSettled: { _ in true })
        #expect(released.map(\.request.id) == ["d1", "d2"])
        // d1 went; d2 must wait for its routes, and a later request came meanwhile.
        writes.caused(6, by: "s")
        let g2Held = writes.hold(Self.get("g2"), from: "s", received: .now, published: 0)
        #expect(g2Held, "it waits for revision 6")
        writes.holdAhead([Self.held(Self.dispatch("d2"), of: "s", waitsForRoutes: true)])
        let unsettled = writes.release(published: 10, routesSettled: { _ in false })
        #expect(unsettled.isEmpty, "g2 stays behind d2")
        let settled = writes.release(published: 10, routesSettled: { _ in true })
        #expect(settled.map(\.request.id) == ["d2", "g2"])
    }

    @Test func aSettledDispatchCountsOnlyAtTheHeadOfItsSession() {
        var writes = OwnWrites()
        #expect(!writes.holdsSettledDispatch(routesSettled: { _ in true }))
        writes.caused(5, by: "s")
        let getHeld = writes.hold(Self.get("g1"), from: "s", received: .now, published: 0)
        #expect(getHeld)
        writes.holdAhead([Self.held(Self.dispatch("d1"), of: "t", waitsForRoutes: true)])
        #expect(!writes.holdsSettledDispatch(routesSettled: { $0 == "s" }))
        #expect(writes.holdsSettledDispatch(routesSettled: { $0 == "t" }))
        var behind = OwnWrites()
        behind.caused(5, by: "s")
        _ = behind.hold(Self.get("g1"), from: "s", received: .now, published: 0)
        let dispatchBehind = behind.hold(Self.dispatch("d2"), from: "s", received: .now, published: 0)
        #expect(dispatchBehind)
        #expect(!behind.holdsSettledDispatch(routesSettled: { _ in true }), "d2 waits behind g1, not for its routes")
    }

    @Test func everythingReleasesDispatchesWaitingForRoutesToo() {
        var writes = OwnWrites()
        writes.holdAhead([Self.held(Self.dispatch("d1"), of: "s", waitsForRoutes: true)])
        let released = writes.release(published: 0, everything: true, routesSettled: { _ in false })
        #expect(released.map(\.request.id) == ["d1"])
    }
}
