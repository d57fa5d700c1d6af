import TestProcessSupport
import Foundation
import GRDB
import StateSyncCore
import Testing
@testable import StateSyncSQLite
import StateSyncJournal

/// "Ack means durable", checked with a real process: a child appends and
/// prints each acknowledged revision; it is SIGKILLed mid-stream and the
/// journal must hold every acknowledged revision, contiguous and intact.
@Suite(.timeLimit(.minutes(1)), .serialized)
struct SQLiteJournalCrashTests {
    @Test(arguments: [(1, 40), (25, 15)] as [(Int, Int)])
    func acknowledgedRevisionsSurviveSIGKILL(batchSize: Int, killAfter: Int) async throws {
        try await withTemporaryDirectory { directory in
            let writer = CrashWriterProcess(directory: directory, batchSize: batchSize)
            var previousLast: UInt64 = 0
            for round in 0..<3 {
                let acknowledged = try await writer.runAndKill(
                    killAfter: killAfter + 7 * round, delayMicroseconds: UInt32(round * 700))
                let highestAcknowledged = try #require(acknowledged.last)
                #expect(acknowledged.first! > previousLast)

                let journal = try await SQLiteJournal.open(configuration: .init(directory: directory), logger: quietLogger)
                #expect(journal.lastRevision >= highestAcknowledged)
                var expected: UInt64 = 1
                for try await entry in try await journal.recovery(pageSize: 500).entries {
                    #expect(entry.revision == expected)
                    #expect(entry.meta.time == Date(timeIntervalSinceReferenceDate: Double(expected)))
                    let action = try JSONParser().parse(entry.action)
                    #expect(action["rev"]?.int64Value == Int64(expected))
                    expected += 1
                }
                #expect(expected - 1 == journal.lastRevision)
                let integrity = try journal.withWriter { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
                #expect(integrity == ["ok"])
                previousLast = journal.lastRevision
                try await journal.close()
            }
        }
    }

    /// One fsync per appended batch: WAL with `synchronous = FULL` syncs the
    /// log at each commit, and nothing else syncs per commit. Opening and
    /// closing (schema, checkpoint) add a few.
    @Test(arguments: [1, 20])
    func everyAppendCostsExactlyOneFsync(batchSize: Int) async throws {
        // Never skipped: without strace this test would prove nothing, so it fails instead.
        try #require(CrashWriterProcess.strace != nil, "strace is needed to count fsyncs; scripts/test installs it (apt-get install strace)")
        try await withTemporaryDirectory { directory in
            try await SQLiteJournal.open(configuration: .init(directory: directory), logger: quietLogger).close()
            let batches = 60
            let fsyncs = try await CrashWriterProcess(directory: directory, batchSize: batchSize)
                .countFsyncs(batches: batches)
            #expect(fsyncs >= batches)
            #expect(fsyncs <= batches + 8)
        }
    }
}
