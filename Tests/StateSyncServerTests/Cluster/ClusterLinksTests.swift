import Logging
import StateSyncCore
import StateSyncProtocol
@testable import StateSyncServer
import TestProcessSupport
import Testing

/// The links to a store's writer keep a session's forwards in order: a
/// dispatch bound to the link its session's earlier ones took is refused
/// once that link closed, instead of overtaking them on a new one.
@Suite(.timeLimit(.minutes(1)))
struct ClusterLinksTests {
    private static func dispatch(_ id: String) -> ForwardedDispatch {
        ForwardedDispatch(
            store: .main, session: SessionInfo(id: "n-1-s-1", name: "alice"), clientID: "c-1", role: .writer, id: id,
            action: ["type": "increment"], schemaVersion: 1)
    }

    @Test func aDispatchBoundToALinkThatClosedIsRefusedAndTheNextLinkIsANewOne() async throws {
        let refusing = try ReservedPort()
        let address = "127.0.0.1:\(refusing.port)"
        let links = ClusterLinks(secret: String(repeating: "0", count: 64), logger: Logger(label: "test"))
        let (answers, answered) = AsyncStream.makeStream(of: ForwardOutcome.self)
        let first = links.forward(Self.dispatch("a"), to: address, onLink: nil) { answered.yield($0) }
        guard case .sent(let link) = first else { Issue.record("not sent: \(first)"); return }
        let second = links.forward(Self.dispatch("b"), to: address, onLink: link) { answered.yield($0) }
        #expect(second == .sent(link: link), "on the same link while it opens")
        // The writer refuses the connection: both fail.
        var outcomes = answers.makeAsyncIterator()
        for _ in 0..<2 {
            let outcome = await outcomes.next()
            guard case .failed? = outcome else { Issue.record("expected a failure, got \(String(describing: outcome))"); return }
        }
        let bound = links.forward(Self.dispatch("c"), to: address, onLink: link) { answered.yield($0) }
        guard case .refused(let reason) = bound else { Issue.record("sent on a link opened anew: \(bound)"); return }
        #expect(reason.contains("has closed"), "\(reason)")
        let fresh = links.forward(Self.dispatch("c"), to: address, onLink: nil) { answered.yield($0) }
        guard case .sent(let next) = fresh else { Issue.record("not sent: \(fresh)"); return }
        #expect(next != link)
        _ = await outcomes.next()
        await links.close()
    }
}
