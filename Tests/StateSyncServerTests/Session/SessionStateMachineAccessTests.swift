import StateSyncCore
import StateSyncProtocol
@testable import StateSyncServer
import StateSyncTestSupport
import Testing

/// The session's decisions about tokens with no socket: a JWT is verified
/// before the join, a role is looked up per store, `auth` replaces the access.
@Suite
struct SessionStateMachineAccessTests {
    private static let start = ContinuousClock.now
    private static let jwt = JWTAuthenticator(key: try! JWTKey.parse(TestJWT.secret, source: "test"))

    private static func machine() -> SessionStateMachine {
        SessionStateMachine(
            configuration: SessionConfiguration(), authentication: SessionAuthentication(tokens: ["root": .admin], jwt: jwt),
            now: start)
    }

    private static func send(_ machine: inout SessionStateMachine, _ message: ClientMessage, store: StoreName = .main) -> SessionStateMachine.Action {
        machine.received(text: MessageEncoder(store: store).encode(message), now: start)
    }

    private static let teamAccess = StoreAccess(grants: [try! StorePattern("team-*"): .writer, try! StorePattern("lobby"): .reader])

    @Test func aTokenNotInTheListIsVerifiedBeforeTheJoin() {
        var machine = Self.machine()
        #expect(Self.send(&machine, .hello(clientID: "c1", token: "a.b.c", name: "al")) == .verify(token: "a.b.c", by: Self.jwt))
        // While it is verified, the session keeps later messages to itself: the machine sees none.
        #expect(Self.send(&machine, .get(id: "g", path: .root)) == .ignore)
        #expect(machine.verified(.success(Self.teamAccess)) == .join(clientID: "c1", name: "al", access: Self.teamAccess))
        #expect(machine.access == Self.teamAccess)
    }

    @Test func aRefusedJWTAtHelloClosesTheConnection() {
        var machine = Self.machine()
        _ = Self.send(&machine, .hello(clientID: nil, token: "a.b.c", name: nil))
        let refusal = ProtocolError.tokenRefused("it expired at 2026-11-27T00:00:00Z")
        #expect(machine.verified(.failure(refusal)) == .replyAndClose(.error(refusal), closeCode: 1008))
    }

    @Test func eachStoreHasTheRoleItsPatternGrants() throws {
        var machine = Self.machine()
        _ = Self.send(&machine, .hello(clientID: nil, token: "a.b.c", name: nil))
        _ = machine.verified(.success(Self.teamAccess))
        let team = try StoreName("team-1")
        #expect(Self.send(&machine, .get(id: "g1", path: .root), store: team) == .request(.get(id: "g1", path: .root), store: team, role: .writer))
        let lobby = try StoreName("lobby")
        #expect(Self.send(&machine, .get(id: "g2", path: .root), store: lobby) == .request(.get(id: "g2", path: .root), store: lobby, role: .reader))
        #expect(Self.send(&machine, .get(id: "g3", path: .root)) == .reply(.error(.storeNotGranted(.main, id: "g3"))))
    }

    @Test func aListedTokenInAuthIsInForceAtOnceAndEndsWhatItNoLongerGrants() throws {
        var machine = Self.machine()
        _ = Self.send(&machine, .hello(clientID: nil, token: "a.b.c", name: nil))
        _ = machine.verified(.success(Self.teamAccess))
        let lobby = try StoreName("lobby")
        _ = Self.send(&machine, .subscribe(id: "s1", path: .root, since: nil), store: lobby)
        let team = try StoreName("team-1")
        _ = Self.send(&machine, .subscribe(id: "s2", path: .root, since: nil), store: team)
        let narrower = StoreAccess(grants: [try StorePattern("team-1"): .reader])
        #expect(Self.send(&machine, .auth(id: "t1", token: "x.y.z")) == .verify(token: "x.y.z", by: Self.jwt))
        #expect(machine.verified(.success(narrower)) == .reauthorize(
            id: "t1", access: narrower, ended: [ScopedSubscription(store: lobby, id: "s1")]))
        #expect(machine.openSubscriptions(in: team) == ["s2"])
        #expect(Self.send(&machine, .auth(id: "t2", token: "root")) == .reauthorize(id: "t2", access: .everyStore(.admin), ended: []))
    }

    @Test func aRefusedAuthIsAnsweredAndTheConnectionStays() {
        var machine = Self.machine()
        _ = Self.send(&machine, .hello(clientID: nil, token: "root", name: nil))
        _ = Self.send(&machine, .auth(id: "t1", token: "a.b.c"))
        let refusal = ProtocolError.tokenRefused("its signature does not verify with the server's key")
        #expect(machine.verified(.failure(refusal)) == .reply(.error(refusal.relating(to: "t1"))))
        #expect(machine.access == .everyStore(.admin))
    }
}
