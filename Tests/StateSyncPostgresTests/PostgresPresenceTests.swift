import Foundation
import StateSyncCore
import StateSyncJournal
import StateSyncPostgres
import StateSyncServer
import StateSyncTestSupport
import Synchronization
import TestProcessSupport
import Testing

/// ``PostgresJournal``'s presence per node (``PostgresPresence``), on the
/// journal itself: which sessions each node owns, and the claim of a dead
/// node by exactly one live node.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct PostgresPresenceTests {
    @Test func aSessionIsOwnedByTheNodeThatJournaledItsJoinUntilItsLeaveCommits() async throws {
        try await TestPostgres.with { postgres in
            let journal = try await Self.open(postgres, node: PostgresNode(id: "n-writer"))
            try await withCleanup {
                try await journal.append(JournalBatch(entries: [
                    Self.presence("sessionJoined", "n-writer-s-1", revision: 1),
                    Self.presence("sessionJoined", "n-writer-s-2", revision: 2),
                    JournalFixtures.entry(3),
                    // Joined and left in one batch: never present.
                    Self.presence("sessionJoined", "n-writer-s-3", revision: 4),
                    Self.presence("sessionLeft", "n-writer-s-3", revision: 5),
                ]))
                #expect(try await PostgresQueries.texts(
                    "SELECT session_id || ' ' || node_id || ' ' || name FROM statesync_presence ORDER BY session_id", on: postgres)
                    == ["n-writer-s-1 n-writer name-n-writer-s-1", "n-writer-s-2 n-writer name-n-writer-s-2"])
                try await journal.append(JournalBatch(entries: [Self.presence("sessionLeft", "n-writer-s-1", revision: 6)]))
                #expect(try await PostgresQueries.presentSessions(on: postgres) == ["n-writer-s-2"])
                #expect(try await PostgresQueries.liveNodes(on: postgres) == ["n-writer"])
                #expect(await journal.clusterPresence?.ownSessions() == [SessionInfo(id: "n-writer-s-2", name: "name-n-writer-s-2")])
            } cleanup: {
                try await journal.close()
            }
            // A clean close removes the node; its rows are then adopted at the next beat of a live node.
            #expect(try await PostgresQueries.liveNodes(on: postgres) == [])
        }
    }

    @Test func exactlyOneLiveNodeClaimsADeadNodeAndLeavesItsSessionsAgainUntilTheLeaveCommits() async throws {
        try await TestPostgres.with { postgres in
            let dead = try await Self.open(postgres, node: PostgresNode(id: "n-dead"))
            try await dead.append(JournalBatch(entries: [
                Self.presence("sessionJoined", "n-dead-s-1", revision: 1), Self.presence("sessionJoined", "n-dead-s-2", revision: 2),
            ]))
            try await dead.close()
            // As if it had died: its row is back, with a heartbeat long past the expiry.
            try await PostgresQueries.run(
                "INSERT INTO statesync_nodes (store_id, node_id, heartbeat_at) VALUES ('default', 'n-dead', now() - interval '1 hour')",
                on: postgres)
            // A fast heartbeat, and an expiry no pause of a loaded machine reaches (n-dead's is an hour old).
            let fast = (heartbeat: Duration.milliseconds(100), expiry: Duration.seconds(10))
            let first = try await Self.open(postgres, node: PostgresNode(id: "n-first", heartbeatInterval: fast.heartbeat, expiry: fast.expiry))
            let second = try await Self.open(postgres, node: PostgresNode(id: "n-second", heartbeatInterval: fast.heartbeat, expiry: fast.expiry))
            let (reports, report) = AsyncStream.makeStream(of: (node: String, sessions: [String]).self)
            let claimers = [first, second].map { journal in
                Task {
                    let presence = journal.clusterPresence!
                    await presence.run(
                        removingSessions: { report.yield((presence.nodeID, $0.map(\.id))) }, announcingSessions: { _ in 0 },
                        removedElsewhere: { 0 })
                }
            }
            try await withCleanup {
                var seen: [(node: String, sessions: [String])] = []
                for await claim in reports {
                    seen.append(claim)
                    if seen.count == 2 { break }
                }
                // The claimer journals nothing here, so the same node leaves them again a beat later: no other node does.
                #expect(seen.map(\.sessions) == [["n-dead-s-1", "n-dead-s-2"], ["n-dead-s-1", "n-dead-s-2"]])
                #expect(seen[0].node == seen[1].node, "\(seen)")
                #expect(try await PostgresQueries.liveNodes(on: postgres) == ["n-first", "n-second"])
                #expect(try await PostgresQueries.texts("SELECT DISTINCT node_id FROM statesync_presence", on: postgres) == [seen[0].node])
                // The claimer's leave commits: the sessions are gone for good.
                let claimer = seen[0].node == "n-first" ? first : second
                let head = claimer.lastRevision
                try await claimer.append(JournalBatch(entries: [
                    Self.presence("sessionLeft", "n-dead-s-1", revision: head + 1), Self.presence("sessionLeft", "n-dead-s-2", revision: head + 2),
                ]))
                #expect(try await PostgresQueries.presentSessions(on: postgres) == [])
            } cleanup: {
                for claimer in claimers { claimer.cancel(); await claimer.value }
                report.finish()
                try await first.close()
                try await second.close()
            }
        }
    }

    @Test func aNodeDeclaredDeadWhileAliveRegistersAgainAndAnnouncesItsSessionsOnceTheClaimerRemovedThem() async throws {
        try await TestPostgres.with { postgres in
            let journal = try await Self.openWithTwoSessions(postgres, node: "n-paused", expiry: .seconds(1))
            let (announcements, announced) = AsyncStream.makeStream(of: Set<String>.self)
            let beating = Task {
                await journal.clusterPresence?.run(
                    removingSessions: { _ in }, announcingSessions: { present in announced.yield(present); return 0 },
                    removedElsewhere: { 0 })
            }
            try await withCleanup {
                // What another node's claim does to a node paused for longer than the expiry: its row is
                // deleted and its sessions adopted in one transaction; their leaves are not committed yet.
                // The claimer stays alive (its heartbeat far ahead), so nobody adopts its rows in turn.
                try await PostgresQueries.run("""
                    WITH gone AS (DELETE FROM statesync_nodes WHERE node_id = 'n-paused'),
                         claimer AS (INSERT INTO statesync_nodes (store_id, node_id, heartbeat_at)
                                     VALUES ('default', 'n-claimer', now() + interval '1 hour'))
                    UPDATE statesync_presence SET node_id = 'n-claimer', adopted_at = now()
                    """, on: postgres)
                #expect(try await eventually { try await PostgresQueries.liveNodes(on: postgres) == ["n-claimer", "n-paused"] })
                // It registered again and found its sessions held: it announces nothing until both leaves commit.
                try await PostgresQueries.run("DELETE FROM statesync_presence WHERE session_id = 'n-paused-s-1'", on: postgres)
                #expect(try await PostgresQueries.texts("SELECT node_id FROM statesync_presence", on: postgres) == ["n-claimer"])
                try await PostgresQueries.run("DELETE FROM statesync_presence WHERE session_id = 'n-paused-s-2'", on: postgres)
                let first = await announcements.first { _ in true }
                // Asked once nothing is held, with no row present: the engine announces every live session.
                #expect(first == [])
            } cleanup: {
                beating.cancel()
                await beating.value
                announced.finish()
                try await journal.close()
            }
            #expect(try await PostgresQueries.liveNodes(on: postgres) == ["n-claimer"])
        }
    }

    @Test func aLiveSessionThatAnotherNodeRemovedIsAnnouncedAgainAtTheNextBeat() async throws {
        try await TestPostgres.with { postgres in
            let journal = try await Self.openWithTwoSessions(postgres, node: "n-live", expiry: .seconds(30))
            let removals = Atomic(0)
            let (announcements, announced) = AsyncStream.makeStream(of: Set<String>.self)
            let beating = Task {
                await journal.clusterPresence?.run(
                    removingSessions: { _ in }, announcingSessions: { present in announced.yield(present); return 0 },
                    removedElsewhere: { removals.load(ordering: .relaxed) })
            }
            try await withCleanup {
                // A claimer's late `sessionLeft` of s-1 commits (its row goes with it) and this node's
                // engine follows it; this node was never declared dead, so only the count tells.
                try await journal.append(JournalBatch(entries: [Self.presence("sessionLeft", "n-live-s-1", revision: 3)]))
                removals.add(1, ordering: .relaxed)
                let first = await announcements.first { _ in true }
                // Asked with the sessions still recorded: the engine announces the other live ones (s-1).
                #expect(first == ["n-live-s-2"])
            } cleanup: {
                beating.cancel()
                await beating.value
                announced.finish()
                try await journal.close()
            }
        }
    }

    /// A journal of node `node` (heartbeat every 100 ms) whose sessions `node-s-1` and `node-s-2` joined.
    private static func openWithTwoSessions(_ postgres: TestPostgres, node: String, expiry: Duration) async throws -> PostgresJournal {
        let journal = try await open(postgres, node: PostgresNode(id: node, heartbeatInterval: .milliseconds(100), expiry: expiry))
        try await journal.append(JournalBatch(entries: [
            presence("sessionJoined", "\(node)-s-1", revision: 1), presence("sessionJoined", "\(node)-s-2", revision: 2),
        ]))
        return journal
    }

    private static func open(_ postgres: TestPostgres, node: PostgresNode) async throws -> PostgresJournal {
        try await PostgresJournal.open(
            location: try PostgresLocation(url: postgres.url), configuration: .init(node: node), logger: JournalFixtures.logger)
    }

    /// A presence entry as the engine journals it: no client, no action id.
    private static func presence(_ command: String, _ session: String, revision: UInt64) -> JournalEntry {
        let action = #"{"command":"\#(command)","session":{"id":"\#(session)","name":"name-\#(session)"}}"#
        return JournalEntry(meta: Meta(revision: revision, time: Date()), action: Array(action.utf8))
    }
}
