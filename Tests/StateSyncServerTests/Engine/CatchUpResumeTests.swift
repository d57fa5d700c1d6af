import BoardApp
import StateSyncCore
import StateSyncJournal
import StateSyncProtocol
@testable import StateSyncServer
import Testing

/// A client that fails over to a node behind the one it left resumes with a
/// `since` this node has not published: it is answered once the node has
/// caught up (never with an older state), or `behind` when it cannot.
@Suite(.timeLimit(.minutes(1)))
struct CatchUpResumeTests {
    /// The first answer to subscription `id`: its snapshot, its first patch, or an error about it.
    private static func firstAnswer(to id: String, in sink: RecordingSink) async -> ServerMessage? {
        @Sendable func answers(_ message: ServerMessage) -> Bool {
            switch message {
            case .snapshot(id, _, _), .patch(id, _, _, _), .error(id?, _, _): true
            default: false
            }
        }
        return await sink.wait { $0.contains(where: answers) }.first(where: answers)
    }

    @Test func aResumeAheadOfThisNodeIsAnsweredOnceItCaughtUpNeverOlder() async throws {
        let nodes = try await StaleNode.make(bClientID: "c2")
        let (a, onA, seen) = (nodes.a, nodes.onA, nodes.revisionOfY)
        #expect(a.revision < seen, "A has not heard of B's writes")

        // The client saw `seen` on B and resumes on A, which nobody told of it.
        a.handle(.subscribe(id: "s1", path: JSONPointer(tokens: ["counters"]), since: seen), from: "s-a")
        let answer = await Self.firstAnswer(to: "s1", in: onA)
        switch answer {
        case let .snapshot(_, rev, value)?:
            #expect(rev >= seen)
            #expect(value["hits"] == 1)
        case let .patch(_, base, rev, _)?:
            #expect(base == seen && rev >= seen)
        default:
            Issue.record("answered \(String(describing: answer))")
        }
        await nodes.shutdown()
    }

    @Test func aResumeThisNodeCannotReachIsAnsweredBehind() async throws {
        let store = MemoryJournal()
        var configuration = engineConfiguration()
        configuration.catchUpTimeout = .milliseconds(200)
        let a = try await boardEngine(journal: SharedMemoryJournal(store: store), configuration: configuration)
        let onA = a.joinRecording("s-a", clientID: "c1")
        _ = try await a.value(at: "", session: "s-a", sink: onA)
        let ahead = a.revision + 50   // a revision no node has: the store's head never gets there
        a.handle(.subscribe(id: "s1", path: .root, since: ahead), from: "s-a")
        let answer = await Self.firstAnswer(to: "s1", in: onA)
        guard case let .error(_, code, message)? = answer else {
            Issue.record("answered \(String(describing: answer))")
            return
        }
        #expect(code == .behind)
        #expect(message == "this node is at revision \(a.revision), behind revision \(ahead) the client has seen: resume on another node")
        // The session goes on: a resume from what this node has is answered as always.
        a.handle(.subscribe(id: "s2", path: .root, since: a.revision), from: "s-a")
        guard case .patch? = await Self.firstAnswer(to: "s2", in: onA) else { Issue.record("s2 was not resumed"); return }
        await a.shutdown()
    }

    @Test func onAJournalNobodyElseWritesAResumeIsAnsweredAtOnce() async throws {
        let a = try await boardEngine(journal: MemoryJournal())
        let onA = a.joinRecording("s-a", clientID: "c1")
        _ = try await a.value(at: "", session: "s-a", sink: onA)
        a.handle(.subscribe(id: "s1", path: .root, since: a.revision + 50), from: "s-a")
        guard case .snapshot? = await Self.firstAnswer(to: "s1", in: onA) else { Issue.record("not a snapshot"); return }
        await a.shutdown()
    }
}
