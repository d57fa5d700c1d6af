import TestProcessSupport
import Foundation
import StateSyncCore
import StateSyncTestSupport
import Testing

extension AbuseTests {
    /// Hardening (issue 11, items 5 and 10): history is retained, not kept
    /// forever. The data directory stops growing under endless actions and
    /// presence joins and leaves (`--journal-retention`), time travel still
    /// rebuilds every kept revision from a snapshot close below it, and a
    /// `--memory` server's journal is bounded by bytes
    /// (`--journal-retention-bytes`).
    @Suite(.timeLimit(.minutes(1)))
    struct JournalRetentionAbuseTests {
        /// A chat line of 480 characters: the board keeps the last 100 lines,
        /// so the state stays the same size while the journal would grow.
        private static let line = String(repeating: "x", count: 480)
        private static let fast = ["--messages-per-second", "100000", "--burst", "100000"]

        @Test func theDataDirectoryStaysBoundedUnderEndlessTraffic() async throws {
            try await withTemporaryDirectory { directory in
                let data = directory + "/data"
                let options = ["serve", "--data", data, "--port", "0", "--snapshot-every", "100", "--journal-retention", "300"] + Self.fast
                var sizes: [Int] = []
                for round in 0..<2 {
                    let server = try ServeProcess(options)
                    let port = try #require(try await server.waitForPort(), "\(server.standardError)")
                    let url = "ws://127.0.0.1:\(port)/sync"
                    try await Self.say(3_000, to: url)
                    for visit in 0..<40 {
                        // Each visit journals a join and a leave.
                        let visitor = try await ProtocolClient.joined(url, name: "visitor-\(visit)")
                        try await visitor.close()
                    }
                    if round == 1 {
                        let bystander = try await ProtocolClient.joined(url, name: "bystander")
                        let started = ContinuousClock.now
                        try await bystander.send(#"{"type":"get","id":"g","path":"/counters"}"#)
                        _ = try await bystander.receive("value")
                        #expect(ContinuousClock.now - started < .seconds(2))
                        try await Self.checkTimeTravel(port: port)
                    }
                    await server.stop()
                    sizes.append(Self.size(of: data))
                }
                // The second round adds as much history as the first, and the directory does not grow with it.
                #expect(sizes[1] <= sizes[0] + sizes[0] / 4, "data directory: \(sizes[0]) bytes, then \(sizes[1])")
                #expect(sizes[1] < 2_000_000, "data directory: \(sizes[1]) bytes")
            }
        }

        @Test func aMemoryServersJournalIsBoundedByBytes() async throws {
            // Every journaled dispatch carries its session's name: with a 50,000-character
            // name each short chat line journals ~50 KB, as a crafted client's would.
            let (server, port) = try await ServeProcess.serving(
                ["--journal-retention-bytes", "1000000", "--max-name-length", "100000"] + Self.fast)
            let url = "ws://127.0.0.1:\(port)/sync"
            let name = String(repeating: "n", count: 50_000)
            try await Self.say(200, to: url, name: name, text: "hi")
            let before = try #require(server.residentBytes)
            try await Self.say(600, to: url, name: name, text: "hi")
            let after = try #require(server.residentBytes)
            // 600 more entries of ~50 KB would be ~30 MB more; the bound keeps
            // ~1 MB, and the allocator's and the sessions' own growth stay
            // well below half of what the unbounded journal would take.
            #expect(after - before < 15_000_000, "RSS \(before) → \(after)")
            let journal = try await Curl.run(port: port, "/devtools/api/journal").json
            let oldest = try #require(journal["oldest"]?.int64Value)
            let latest = try #require(journal["latest"]?.int64Value)
            #expect(latest - oldest < 25, "kept \(oldest)…\(latest)")
            let bystander = try await ProtocolClient.joined(url, name: "bystander")
            let started = ContinuousClock.now
            try await bystander.send(#"{"type":"get","id":"g","path":"/counters"}"#)
            _ = try await bystander.receive("value")
            #expect(ContinuousClock.now - started < .seconds(2))
            await server.stop()
        }

        @Test(arguments: [0, 2])
        func olderSnapshotsFlagSetsHowManySnapshotsOutliveTheJournal(older: Int) async throws {
            let (server, port) = try await ServeProcess.serving(
                ["--snapshot-every", "10", "--journal-retention", "20", "--older-snapshots", "\(older)"] + Self.fast)
            try await Self.say(600, to: "ws://127.0.0.1:\(port)/sync")
            let journal = try await Curl.run(port: port, "/devtools/api/journal").json
            let oldest = try #require(journal["oldest"]?.int64Value)
            let snapshots = try #require(journal["snapshots"]?.arrayValue).compactMap(\.int64Value)
            // Hundreds of revisions lie below the kept journal, in snapshots of
            // every distance class: exactly the flag's number of them stays.
            let olderOnes = snapshots.filter { $0 < oldest }
            #expect(olderOnes.count == older, "oldest kept \(oldest), snapshots \(snapshots)")
            for revision in olderOnes {
                #expect(try await Curl.run(port: port, "/devtools/api/state?rev=\(revision)").status == 200)
            }
            if let gone = (1..<oldest).first(where: { !olderOnes.contains($0) }) {
                #expect(try await Curl.run(port: port, "/devtools/api/state?rev=\(gone)").status == 404)
            }
            await server.stop()
        }

        /// Every kept revision is rebuilt from a snapshot at most one interval
        /// (plus a batch) below it; older revisions are gone, not wrong.
        private static func checkTimeTravel(port: Int) async throws {
            let journal = try await Curl.run(port: port, "/devtools/api/journal").json
            let oldest = try #require(journal["oldest"]?.int64Value)
            let latest = try #require(journal["latest"]?.int64Value)
            #expect(oldest > 1 && latest - oldest <= 300 + 100, "kept \(oldest)…\(latest)")
            for revision in [oldest + 1, (oldest + latest) / 2, latest] {
                let state = try await Curl.run(port: port, "/devtools/api/state?rev=\(revision)")
                #expect(state.status == 200, "\(state.body)")
                let from = try #require(try state.json["snapshot"]?.int64Value)
                #expect(revision - from <= 100 + 200, "rev \(revision) replayed from \(from)")
            }
            #expect(try await Curl.run(port: port, "/devtools/api/state?rev=\(oldest - 1)").status == 404)
        }

        /// Sends `count` chat lines from one connection, 100 at a time (each
        /// hundred without waiting, then their acks): steady traffic, in batches
        /// of about a snapshot interval.
        private static func say(_ count: Int, to url: String, name: String = "writer", text line: String = line) async throws {
            let writer = try await ProtocolClient.joined(url, name: name)
            let text = #"{"type":"dispatch","id":"ID","action":{"type":"postMessage","text":""# + line + #""}}"#
            for start in stride(from: 0, to: count, by: 100) {
                let end = min(count, start + 100)
                for index in start..<end {
                    try await writer.send(text.replacingOccurrences(of: "\"ID\"", with: "\"s\(index)\""))
                }
                for _ in start..<end { _ = try await writer.receive("ack") }
            }
            try await writer.close()
        }

        /// The bytes of the files in `directory`.
        private static func size(of directory: String) -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return names.reduce(0) { total, name in
                total + ((try? FileManager.default.attributesOfItem(atPath: directory + "/" + name))?[.size] as? Int ?? 0)
            }
        }
    }
}
