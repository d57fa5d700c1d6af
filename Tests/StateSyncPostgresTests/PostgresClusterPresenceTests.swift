import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// Presence across real `statesync serve --postgres` nodes: a node killed
/// without a word has its sessions removed by a live node, a node paused
/// for longer than the expiry announces its still-connected sessions again,
/// and a node that starts (again) leaves the other nodes' sessions in
/// `/presence`. The
/// heartbeat and expiry are short here (0.2 s, 1 s) so that the tests run fast.
///
/// The nodes are started so that each one's first writes find its view of
/// the journal current; the last clean stop relies on the node following
/// the others' writes (``PostgresFollowerTests`` covers that).
@Suite(.timeLimit(.minutes(2)), .serialized)
struct PostgresClusterPresenceTests {
    @Test func aKilledNodesSessionsAreRemovedByALiveNode() async throws {
        try await TestPostgres.with { postgres in
            let (nodeA, portA) = try await Self.node(on: postgres)
            let alice = try await ProtocolClient.joined("ws://127.0.0.1:\(portA)/sync", name: "alice")
            let aliceID = try #require(alice.welcome["session"]?.stringValue)
            #expect(try await eventually { try await PostgresQueries.presentSessions(on: postgres) == [aliceID] })
            let (nodeB, portB) = try await Self.node(on: postgres)
            let bob = try await ProtocolClient.joined("ws://127.0.0.1:\(portB)/sync", name: "bob")
            let bobID = try #require(bob.welcome["session"]?.stringValue)
            // Session ids name their node, so they are unique across the cluster.
            let nodes = try await PostgresQueries.liveNodes(on: postgres)
            #expect(nodes.count == 2)
            let nodeOfA = try #require(nodes.first { aliceID.hasPrefix("\($0)-s-") }, "\(aliceID) names none of \(nodes)")
            let nodeOfB = try #require(nodes.first { bobID.hasPrefix("\($0)-s-") }, "\(bobID) names none of \(nodes)")
            #expect(nodeOfA != nodeOfB)
            #expect(try await eventually { try await PostgresQueries.presentSessions(on: postgres) == [aliceID, bobID].sorted() })
            // Bob watches presence on B: alice (of A) and himself.
            try await bob.send(#"{"type":"subscribe","id":"p","path":"/presence"}"#)
            var present = Set(try #require(try await bob.receive("snapshot")["value"]?.objectValue).keys)
            while present != [aliceID, bobID] {
                present = try Self.applyPresencePatch(try await bob.receive("patch"), to: present)
            }

            nodeA.send(SIGKILL)
            _ = await nodeA.waitForExit()
            // B claims A after the expiry and journals alice's leave: bob sees her go.
            while present.contains(aliceID) {
                present = try Self.applyPresencePatch(try await bob.receive("patch"), to: present)
            }
            #expect(present == [bobID])
            #expect(try await PostgresQueries.presentSessions(on: postgres) == [bobID])
            #expect(try await PostgresQueries.liveNodes(on: postgres) == [nodeOfB])
            let leaves = try await PostgresQueries.texts("""
                SELECT revision::text FROM statesync_journal
                 WHERE convert_from(action, 'UTF8')::jsonb @> '{"command":"sessionLeft","session":{"id":"\(aliceID)"}}'
                """, on: postgres)
            #expect(leaves.count == 1, "alice's leave journaled once: \(leaves)")

            // A clean stop says bob left and takes B out of the nodes.
            await nodeB.stop()
            #expect(try await PostgresQueries.presentSessions(on: postgres) == [])
            #expect(try await PostgresQueries.liveNodes(on: postgres) == [])
        }
    }

    @Test func aStartingNodeKeepsTheOtherNodesSessionsAndTheNodesTableStaysBounded() async throws {
        try await TestPostgres.with { postgres in
            let (nodeB, portB) = try await Self.node(on: postgres)
            let bob = try await ProtocolClient.joined("ws://127.0.0.1:\(portB)/sync", name: "bob")
            let bobID = try #require(bob.welcome["session"]?.stringValue)
            #expect(try await eventually { try await PostgresQueries.presentSessions(on: postgres) == [bobID] })
            let nodeOfB = try #require(try await PostgresQueries.liveNodes(on: postgres).first)
            let (nodeA, portA) = try await Self.node(on: postgres)
            let alice = try await ProtocolClient.joined("ws://127.0.0.1:\(portA)/sync", name: "alice")
            let aliceID = try #require(alice.welcome["session"]?.stringValue)
            #expect(try await eventually { try await PostgresQueries.presentSessions(on: postgres) == [aliceID, bobID].sorted() })
            // Starting A did not drop bob (B's) from presence.
            #expect(try await HTTPProbe.presence(port: portA) == [aliceID, bobID])

            // A clean stop says alice left and takes A out of the nodes, at once.
            await nodeA.stop()
            #expect(try await PostgresQueries.presentSessions(on: postgres) == [bobID])
            #expect(try await PostgresQueries.liveNodes(on: postgres) == [nodeOfB])

            // Nodes started again and again (killed each time) keep bob in /presence.
            for _ in 0..<3 {
                let (restarted, port) = try await Self.node(on: postgres)
                #expect(try await HTTPProbe.presence(port: port) == [bobID])
                restarted.send(SIGKILL)
                _ = await restarted.waitForExit()
            }
            // The killed nodes expire and are claimed: the table holds the live node only.
            #expect(try await eventually(within: .seconds(20)) { try await PostgresQueries.liveNodes(on: postgres) == [nodeOfB] })
            #expect(try await PostgresQueries.presentSessions(on: postgres) == [bobID])
            // B, which followed the others' writes, stops cleanly: bob leaves, and the table is empty.
            await nodeB.stop()
            #expect(try await PostgresQueries.presentSessions(on: postgres) == [])
            #expect(try await PostgresQueries.liveNodes(on: postgres) == [])
        }
    }

    @Test func aNodePausedLongerThanTheExpiryAnnouncesItsStillConnectedSessionsAgain() async throws {
        try await TestPostgres.with { postgres in
            let (nodeA, portA) = try await Self.node(on: postgres)
            let (nodeB, portB) = try await Self.node(on: postgres)
            let alice = try await ProtocolClient.joined("ws://127.0.0.1:\(portA)/sync", name: "alice")
            let aliceID = try #require(alice.welcome["session"]?.stringValue)
            #expect(try await eventually { try await HTTPProbe.presence(port: portB) == [aliceID] })

            nodeA.send(SIGSTOP)
            // B finds A's heartbeat older than the expiry (1 s), claims it and journals alice's leave.
            let removed = try await withCleanup {
                try await eventually { try await HTTPProbe.presence(port: portB).isEmpty }
            } cleanup: {
                nodeA.send(SIGCONT)
            }
            #expect(removed, "B never removed alice while A was paused")
            // A finds itself declared dead, registers again and announces alice again: every node lists her.
            #expect(try await eventually { try await HTTPProbe.presence(port: portB) == [aliceID] })
            #expect(try await eventually { try await HTTPProbe.presence(port: portA) == [aliceID] })
            #expect(try await PostgresQueries.presentSessions(on: postgres) == [aliceID])
            #expect(try await PostgresQueries.liveNodes(on: postgres).count == 2)
            // Her connection never dropped: the same session still gets answers.
            try await alice.send(#"{"type":"get","id":"g","path":"/presence"}"#)
            let value = try await alice.receive("value")
            #expect(value["value"]?.objectValue?.keys.sorted() == [aliceID])

            await nodeA.stop()
            #expect(try await eventually { try await HTTPProbe.presence(port: portB).isEmpty })
            await nodeB.stop()
        }
    }

    @Test(arguments: [
        ["--presence-heartbeat", "5", "--presence-expiry", "5"],
        ["--presence-heartbeat", "0.01"],
        ["--presence-expiry", "7200"],
    ])
    func refusesPresenceTimingsThatCannotWork(arguments: [String]) async throws {
        let server = try ServeProcess(["serve", "--port", "0", "--memory"] + arguments)
        #expect(await server.waitForExit() != 0)
        #expect(server.standardError.contains("--presence-heartbeat must be at least 0.1 s and --presence-expiry longer than it"),
                "\(server.standardError)")
    }

    /// A `statesync serve --postgres` node with a fast heartbeat, listening.
    private static func node(on postgres: TestPostgres) async throws -> (ServeProcess, Int) {
        let server = try ServeProcess([
            "serve", "--port", "0", "--postgres", postgres.url, "--presence-heartbeat", "0.2", "--presence-expiry", "1",
        ])
        let port = try #require(try await server.waitForPort(), "no URL printed: \(server.standardError)")
        return (server, port)
    }

    /// The session ids of a `/presence` subscription after `patch`: its
    /// operations replace the whole object (path `""`) or add, change or
    /// remove one session (`/<id>`, relative to the subscription).
    private static func applyPresencePatch(_ patch: JSONValue, to present: Set<String>) throws -> Set<String> {
        var present = present
        for operation in try #require(patch["ops"]?.arrayValue, "no ops in \(patch)") {
            let path = try #require(operation["path"]?.stringValue)
            if path.isEmpty {
                present = Set(try #require(operation["value"]?.objectValue, "\(operation)").keys)
                continue
            }
            let id = String(path.split(separator: "/", omittingEmptySubsequences: true).first ?? "")
            switch operation["op"]?.stringValue {
            case "add", "replace": present.insert(id)
            case "remove": present.remove(id)
            default: Issue.record("unexpected operation \(operation)")
            }
        }
        return present
    }
}
