import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// The real `statesync serve` configured by a file, variables and flags:
/// it serves with what they say together, prints it with `--print-config`,
/// and refuses a bad file with exit status 2.
@Suite(.timeLimit(.minutes(1)))
struct ServeConfigProcessTests {
    static let example = ServeSettings.repositoryFile("deploy/statesync.example.yaml")

    @Test func servesTheExampleFileWithAVariableAndAFlagOverIt() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("statesync-example-\(UUID().uuidString)").path
        let server = try ServeProcess(["serve", "--config", Self.example, "--port", "0"], environment: ["STATESYNC_DATA": data])
        let port = try #require(try await server.waitForPort(), "no URL printed: \(server.standardError)")
        let client = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync")
        try await client.send(#"{"type":"dispatch","id":"a1","action":{"type":"increment","counter":"hits","by":3}}"#)
        #expect(try await client.receive("ack")["id"] == "a1")
        try await client.send(#"{"type":"get","id":"g1","path":"/counters/hits"}"#)
        #expect(try await client.receive("value")["value"] == 3)
        await server.stop()
        #expect(FileManager.default.fileExists(atPath: data + "/statesync.sqlite"), "STATESYNC_DATA is the data directory")
    }

    @Test func theFileTheVariablesAndTheFlagsActTogether() async throws {
        let file = try ServeSettings.file("statesync.yaml", """
            network:
              port: 1                  # --port 0 wins
            storage:
              memory: true
            auth:
              restrictAction: ["resetCounter=admin"]
            """)
        let server = try ServeProcess(
            ["serve", "--config", file, "--port", "0"], environment: ["STATESYNC_TOKENS": "root=admin,pen=writer"])
        let port = try #require(try await server.waitForPort(), "no URL printed: \(server.standardError)")
        let url = "ws://127.0.0.1:\(port)/sync"
        let writer = try await ProtocolClient.joined(url, clientID: "writer", token: "pen")
        try await writer.send(#"{"type":"dispatch","id":"r1","action":{"type":"resetCounter","counter":"hits"}}"#)
        #expect(try await writer.receive("reject")["code"] == "forbidden")
        let admin = try await ProtocolClient.joined(url, clientID: "admin", token: "root")
        try await admin.send(#"{"type":"dispatch","id":"r2","action":{"type":"resetCounter","counter":"hits"}}"#)
        #expect(try await admin.receive("ack")["id"] == "r2")
        await server.stop()
    }

    @Test func printConfigShowsWhatIsInForceWithSecretsMasked() async throws {
        let result = try await CLI.run(
            ["serve", "--config", Self.example, "--print-config", "--port", "9000"],
            environment: ["STATESYNC_TOKENS": "s3cret=admin", "STATESYNC_POSTGRES_URL": "postgres://statesync:pg-secret@db/statesync"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(!result.output.contains("s3cret") && !result.output.contains("pg-secret"), "\(result.output)")
        #expect(result.output.contains("  port: 9000  # --port\n"), "\(result.output)")
        #expect(result.output.contains(#"  data: "/var/lib/statesync"  # file"#), "\(result.output)")
        #expect(result.output.contains(#"  tokens: ["********=admin"]  # STATESYNC_TOKENS"#), "\(result.output)")
        #expect(result.output.contains(#"  postgresURL: "postgres://statesync:********@db/statesync"  # STATESYNC_POSTGRES_URL"#), "\(result.output)")
    }

    @Test func aTypoInTheFileExitsTwoNamingTheKey() async throws {
        let file = try ServeSettings.file("statesync.yaml", "network:\n  prot: 9000\n")
        let result = try await CLI.run(["serve", "--config", file])
        #expect(result.status == 2)
        #expect(result.errors == "statesync: \(file): unknown key network.prot (did you mean network.port?); docs/configuration.md lists every key\n")
    }
}
