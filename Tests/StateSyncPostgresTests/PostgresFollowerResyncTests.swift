import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// A real `statesync serve --postgres` node that was away while the
/// journal's retention dropped the entries it missed loads the store's
/// newest snapshot, replays the entries after it, and brings its
/// subscribers up to date with one patch across the dropped revisions
/// (`Sequencer+Resync.swift`).
@Suite(.timeLimit(.minutes(3)), .serialized)
struct PostgresFollowerResyncTests {
    @Test func aFollowerWhoseMissedEntriesWereDroppedLoadsTheNewestSnapshotAndItsSubscriberConverges() async throws {
        try await TestPostgres.with { postgres in
            // A snapshot every 5 revisions, and 5 revisions kept behind the newest.
            let retention = ["--snapshot-every", "5", "--journal-retention", "5"]
            let a = try await ClusterNode.start(postgres, retention)
            let b = try await ClusterNode.start(postgres, retention)
            let writer = try await ProtocolClient.joined(a.url, clientID: "writer-a")
            let subscriber = try await ProtocolClient.joined(b.url, clientID: "sub-b")
            try await subscriber.send(#"{"type":"subscribe","id":"all","path":""}"#)
            var mirror = try WholeStateMirror(snapshot: try await subscriber.receive("snapshot"))
            // B has published both joins, its own included: its writer is idle, so the pause holds no
            // transaction open (one would block A's compare-and-set on the head until B resumes).
            let joined = try [writer, subscriber].map { try #require($0.welcome["session"]?.stringValue) }
            while Set(mirror.value["presence"]?.objectValue.map { Array($0.keys) } ?? []) != Set(joined) {
                try mirror.apply(try await subscriber.receive("patch"))
            }
            let paused = mirror.revision

            b.process.send(SIGSTOP)
            let dropped = try await withCleanup {
                for index in 0..<40 {
                    try await writer.send(.object(["type": "dispatch", "id": .string("a\(index)"),
                                                   "action": ["type": "increment", "counter": "hits"]]))
                    #expect(try await writer.receive("ack")["rev"] != nil)
                }
                // A's snapshots apply the retention: the entries after B's revision go.
                return try await eventually {
                    let oldest = try await PostgresQueries.text("SELECT min(revision)::text FROM statesync_journal", on: postgres)
                    return (oldest.flatMap { Int64($0) } ?? 0) > paused + 1
                }
            } cleanup: {
                b.process.send(SIGCONT)
            }
            #expect(dropped, "retention never dropped the entries after revision \(paused)")

            let bodies = try await ClusterChecks.converged([a, b], on: postgres)
            #expect(bodies[0] == bodies[1], "A: \(bodies[0])\nB: \(bodies[1])")
            #expect(bodies[1].contains(#""hits":40"#), "\(bodies[1])")
            #expect(b.process.standardError.contains("loaded the store's newest snapshot"), "\(b.process.standardError)")

            // The subscriber's mirror, patched along, equals what B answers to `get` (sent after the patches it follows).
            try await subscriber.send(#"{"type":"get","id":"g","path":""}"#)
            var value = try await subscriber.receive()
            while value["type"] == "patch" {
                try mirror.apply(value)
                value = try await subscriber.receive()
            }
            #expect(value["type"] == "value", "\(value)")
            #expect(mirror.revision == value["rev"]?.int64Value)
            #expect(mirror.value == value["value"])
            await a.process.stop()
            await b.process.stop()
        }
    }
}

/// A subscription to the whole state, kept by applying its patches in
/// `base` order, as a client's mirror is.
private struct WholeStateMirror {
    private(set) var value: JSONValue
    private(set) var revision: Int64

    init(snapshot: JSONValue) throws {
        value = try #require(snapshot["value"], "\(snapshot)")
        revision = try #require(snapshot["rev"]?.int64Value, "\(snapshot)")
    }

    /// Applies `patch`, which must chain on the mirror's revision.
    mutating func apply(_ patch: JSONValue) throws {
        let base = try #require(patch["base"]?.int64Value, "\(patch)")
        let rev = try #require(patch["rev"]?.int64Value, "\(patch)")
        try #require(base == revision, "a gap: the mirror is at \(revision), the patch \(patch)")
        try JSONPatch(jsonValue: try #require(patch["ops"], "\(patch)")).apply(to: &value)
        revision = rev
    }
}
