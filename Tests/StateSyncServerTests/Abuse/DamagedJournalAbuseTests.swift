import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

extension AbuseTests {
    /// Hardening (issue 11, item 8): a damaged journal never silently rolls
    /// history back. 64 bad bytes in the write-ahead log used to restart the
    /// server at an older revision under the same epoch; now it refuses to
    /// start (exit 1, saying what it found), `statesync verify` reports the
    /// damage, `--on-damaged-journal new-epoch` serves what is left under a new
    /// epoch, and a clean stop leaves no write-ahead log to damage.
    @Suite(.timeLimit(.minutes(1)))
    struct DamagedJournalAbuseTests {
        private static let acknowledged = 120

        @Test func aWriteAheadLogBehindTheAcknowledgedRevisionIsRefusedThenServedUnderANewEpoch() async throws {
            try await withTemporaryDirectory { directory in
                let data = directory + "/data"
                let first = try ServeProcess(["serve", "--data", data, "--port", "0"])
                let port = try #require(try await first.waitForPort(), "\(first.standardError)")
                let writer = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", clientID: "c-w", name: "writer")
                let epoch = try #require(writer.welcome["epoch"]?.stringValue)
                var lastAck: Int64 = 0
                for index in 0..<Self.acknowledged {
                    // One at a time: one transaction each, spread over the log.
                    try await writer.send(.object([
                        "type": "dispatch", "id": .string("a\(index)"), "action": ["type": "addTodo", "title": .string("todo \(index)")],
                    ]))
                    lastAck = try #require(try await writer.receive("ack")["rev"]?.int64Value)
                }
                first.send(SIGKILL)
                _ = await first.waitForExit()
                try Self.damageWriteAheadLog(data + "/statesync.sqlite-wal")

                // Refused: exit 1, and the message says what was lost and what to do.
                let refused = try ServeProcess(["serve", "--data", data, "--port", "0"])
                #expect(await refused.waitForExit() == 1)
                let message = refused.standardError
                #expect(message.contains("refusing to open"), "\(message)")
                #expect(message.contains("revision \(lastAck) of epoch \(epoch) was acknowledged as durable"), "\(message)")
                #expect(message.contains("--on-damaged-journal new-epoch"), "\(message)")
                #expect(!refused.standardOutput.contains("listening"))

                let damaged = try await Self.verify(data)
                #expect(damaged.status == 1)
                #expect(damaged.output.contains("PROBLEM: revision \(lastAck) of epoch \(epoch) was acknowledged"), "\(damaged.output)")
                #expect(damaged.output.hasSuffix("damaged\n"))

                // The operator's choice: what is left, under a new epoch, said loudly.
                let recovered = try ServeProcess(["serve", "--data", data, "--port", "0", "--on-damaged-journal", "new-epoch"])
                let newPort = try #require(try await recovered.waitForPort(), "\(recovered.standardError)")
                #expect(recovered.standardError.contains("critical"), "\(recovered.standardError)")
                let started = ContinuousClock.now
                let bystander = try await ProtocolClient.joined("ws://127.0.0.1:\(newPort)/sync", name: "bystander")
                let newEpoch = try #require(bystander.welcome["epoch"]?.stringValue)
                #expect(newEpoch != epoch)
                #expect(ContinuousClock.now - started < .seconds(5))
                try await bystander.send(#"{"type":"get","id":"g","path":"/todos"}"#)
                let kept = try #require(try await bystander.receive("value")["value"]?.arrayValue)
                #expect(kept.count < Self.acknowledged, "the damage rolled nothing back?")
                await recovered.stop()

                // A clean stop checkpoints: no log left to damage, and the directory verifies.
                let log = (try? FileManager.default.attributesOfItem(atPath: data + "/statesync.sqlite-wal"))?[.size] as? Int
                #expect(log == nil || log == 0, "write-ahead log of \(log ?? 0) bytes after SIGTERM")
                let intact = try await Self.verify(data)
                #expect(intact.status == 0, "\(intact.output)")
                #expect(intact.output.contains("epoch \(newEpoch)"))
                #expect(intact.output.contains("SQLite quick_check: ok"))
                #expect(intact.output.hasSuffix("intact\n"))
            }
        }

        @Test func aCleanStopLeavesNoLogAndARestartKeepsTheEpoch() async throws {
            try await withTemporaryDirectory { directory in
                let data = directory + "/data"
                let first = try ServeProcess(["serve", "--data", data, "--port", "0"])
                let port = try #require(try await first.waitForPort(), "\(first.standardError)")
                let writer = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", name: "writer")
                try await writer.send(#"{"type":"dispatch","id":"a","action":{"type":"addTodo","title":"kept"}}"#)
                _ = try await writer.receive("ack")
                await first.stop()
                let log = (try? FileManager.default.attributesOfItem(atPath: data + "/statesync.sqlite-wal"))?[.size] as? Int
                #expect(log == nil || log == 0, "write-ahead log of \(log ?? 0) bytes after SIGTERM")
                let second = try ServeProcess(["serve", "--data", data, "--port", "0"])
                let secondPort = try #require(try await second.waitForPort(), "\(second.standardError)")
                let reader = try await ProtocolClient.joined("ws://127.0.0.1:\(secondPort)/sync", name: "reader")
                #expect(reader.welcome["epoch"] == writer.welcome["epoch"])
                await second.stop()
            }
        }

        /// Overwrites 64 bytes in the middle of the log, as the issue did.
        private static func damageWriteAheadLog(_ path: String) throws {
            let handle = try #require(FileHandle(forUpdatingAtPath: path), "no write-ahead log at \(path)")
            defer { try? handle.close() }  // the bytes are written; closing cannot lose them
            let size = try handle.seekToEnd()
            try #require(size > 64 * 1_024, "write-ahead log of \(size) bytes: too small to damage in the middle")
            try handle.seek(toOffset: size / 2)
            try handle.write(contentsOf: Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
        }

        private static func verify(_ data: String) async throws -> Subprocess.Result {
            try await Subprocess.run([ServeProcess.executable.path, "verify", "--data", data])
        }
    }
}
