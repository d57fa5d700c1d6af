import StateSyncJournal
import TestProcessSupport
import Foundation
import StateSyncCore
import StateSyncServer
import StateSyncTestSupport
import Testing

/// Time travel over a retained journal: every kept revision is rebuilt
/// exactly (the state seen live at that revision), from a snapshot at most
/// one snapshot interval below it; older revisions are gone (404), except
/// the thinned older snapshots' own. Three minutes: its 120 sequential round
/// trips take 0.4 s alone but 56–60 s inside the whole suite on this 2-core
/// machine, and over 60 s once in a clean-clone CI run.
@Suite(.timeLimit(.minutes(3)))
struct TimeTravelRetentionTests {
    private static func json(_ port: Int, _ path: String) async throws -> (Int, JSONValue) {
        let (status, body) = try await HTTPGet.get(port: port, path: path, headers: "")
        return (status, try JSONParser().parse(Array(body.utf8)))
    }

    @Test(arguments: [false, true])
    func everyKeptRevisionIsRebuiltFromANearbySnapshot(sqlite: Bool) async throws {
        try await withTemporaryDirectory { directory in
            var configuration = TestServer.configuration
            configuration.engine.snapshotEvery = 5
            configuration.retention = JournalRetention(revisions: 20, olderSnapshots: 3)
            if sqlite { configuration.storage = .directory(directory) }
            try await TestServer.with(configuration) { server in
                let client = try await ProtocolClient.joined(server.url)
                var seen: [Int: JSONValue] = [:]
                for index in 0..<60 {
                    // One at a time: each batch holds one action, so snapshots land every 5 revisions.
                    try await client.send(#"{"type":"dispatch","id":"a\#(index)","action":{"type":"increment","counter":"c\#(index % 7)","by":\#(index)}}"#)
                    let rev = try #require(try await client.receive("ack")["rev"]?.intValue)
                    try await client.send(#"{"type":"get","id":"g\#(index)","path":""}"#)
                    seen[rev] = try await client.receive("value")["value"]
                }
                let (_, journal) = try await Self.json(server.port, "/devtools/api/journal")
                let oldest = try #require(journal["oldest"]?.intValue)
                let latest = try #require(journal["latest"]?.intValue)
                let snapshots = try #require(journal["snapshots"]?.arrayValue).compactMap { $0.intValue }
                #expect(oldest > 1 && latest - oldest <= 20 + 5, "kept \(oldest)…\(latest)")
                #expect(snapshots.filter { $0 < oldest }.count <= 3, "\(snapshots)")
                for (rev, state) in seen where rev >= oldest {
                    let (status, rebuilt) = try await Self.json(server.port, "/devtools/api/state?rev=\(rev)")
                    #expect(status == 200, "rev \(rev): \(rebuilt)")
                    #expect(rebuilt["state"] == state, "rev \(rev)")
                    let from = try #require(rebuilt["snapshot"]?.intValue)
                    #expect(rev - from <= 5, "rev \(rev) replayed from \(from)")
                }
                for rev in snapshots where rev < oldest {
                    let (status, rebuilt) = try await Self.json(server.port, "/devtools/api/state?rev=\(rev)")
                    #expect(status == 200)
                    if let state = seen[rev] { #expect(rebuilt["state"] == state, "older snapshot \(rev)") }
                }
                let gone = try #require((1..<oldest).first { !snapshots.contains($0) })
                #expect(try await Self.json(server.port, "/devtools/api/state?rev=\(gone)").0 == 404)
                try await client.close()
            }
        }
    }
}
