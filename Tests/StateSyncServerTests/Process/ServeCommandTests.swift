import TestProcessSupport
import Foundation
import StateSyncCore
import StateSyncTestSupport
import Testing
import WebSocket

/// The real `statesync serve` binary: restart recovery after SIGKILL, clean
/// SIGTERM shutdown, and its one-line errors and exit codes. Two minutes:
/// inside the whole suite its SIGKILL test took 73.7 s (a clean-clone run on
/// 2026-11-26).
@Suite(.timeLimit(.minutes(2)), .serialized)
struct ServeCommandTests {
    private static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("statesync-serve-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func everyAckedActionSurvivesSIGKILL() async throws {
        let data = try Self.temporaryDirectory() + "/data"
        let first = try ServeProcess(["serve", "--port", "0", "--data", data, "--snapshot-every", "7"])
        let port = try #require(try await first.waitForPort(), "no URL printed: \(first.standardError)")
        let writer = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", clientID: "killer")
        // Stream dispatches without waiting; kill the server while acks are still arriving.
        let total = 400
        for index in 0..<total {
            try await writer.send(.object(["type": "dispatch", "id": .string("a\(index)"),
                                           "action": ["type": "increment", "counter": "hits"]]))
        }
        var acked: [Int64] = []
        while acked.count < 50 {
            let message = try await writer.receive()
            if message["type"] == "ack", let rev = message["rev"]?.int64Value { acked.append(rev) }
        }
        first.send(SIGKILL)
        _ = await first.waitForExit()
        acked += try await writer.drainUntilClosed().filter { $0["type"] == "ack" }.compactMap { $0["rev"]?.int64Value }

        let second = try ServeProcess(["serve", "--port", "0", "--data", data])
        let port2 = try #require(try await second.waitForPort(), "no URL printed: \(second.standardError)")
        let reader = try await ProtocolClient.joined("ws://127.0.0.1:\(port2)/sync", clientID: "killer")
        try await reader.send(#"{"type":"get","id":"g1","path":"/counters/hits"}"#)
        let hits = try #require(try await reader.receive("value")["value"]?.int64Value)
        #expect(hits >= Int64(acked.count), "\(acked.count) acked, \(hits) survived")
        #expect(hits <= Int64(total))
        // The acked ids are remembered: re-dispatching the first one is not applied again.
        try await reader.send(#"{"type":"dispatch","id":"a0","action":{"type":"increment","counter":"hits"}}"#)
        #expect(try await reader.receive("ack")["rev"]?.int64Value == acked.min())
        second.send(SIGTERM)
        #expect(await second.waitForExit() == 0)
    }

    @Test func sigtermClosesClientsWith1001AndExitsZero() async throws {
        let data = try Self.temporaryDirectory() + "/data"
        let server = try ServeProcess(["serve", "--port", "0", "--data", data])
        let port = try #require(try await server.waitForPort())
        let client = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync")
        try await client.send(#"{"type":"dispatch","id":"a1","action":{"type":"addTodo","title":"Milk"}}"#)
        _ = try await client.receive("ack")
        server.send(SIGTERM)
        _ = try await client.drainUntilClosed()
        #expect(client.closeCode == 1001)
        #expect(await server.waitForExit() == 0)

        let again = try ServeProcess(["serve", "--port", "0", "--data", data])
        let port2 = try #require(try await again.waitForPort())
        let reader = try await ProtocolClient.joined("ws://127.0.0.1:\(port2)/sync")
        // Same history: same epoch, revisions go on.
        #expect(reader.welcome["epoch"] == client.welcome["epoch"])
        #expect(try #require(reader.welcome["rev"]?.int64Value) > (try #require(client.welcome["rev"]?.int64Value)))
        try await reader.send(#"{"type":"get","id":"g1","path":"/todos"}"#)
        #expect(try await reader.receive("value")["value"]?[0]?["title"] == "Milk")
        again.send(SIGINT)
        #expect(await again.waitForExit() == 0)

        // A new data directory is a new history: another epoch.
        let fresh = try ServeProcess(["serve", "--port", "0", "--data", data + "-new"])
        let port3 = try #require(try await fresh.waitForPort())
        let newcomer = try await ProtocolClient.joined("ws://127.0.0.1:\(port3)/sync")
        #expect(newcomer.welcome["epoch"] != client.welcome["epoch"])
        fresh.send(SIGTERM)
        #expect(await fresh.waitForExit() == 0)
    }

    @Test func secondServerOnTheSameDataOrPortFailsWithOneLine() async throws {
        let data = try Self.temporaryDirectory() + "/data"
        let server = try ServeProcess(["serve", "--port", "0", "--data", data])
        let port = try #require(try await server.waitForPort())

        let locked = try ServeProcess(["serve", "--port", "0", "--data", data])
        #expect(await locked.waitForExit() == 1)
        #expect(locked.standardError.contains("statesync: the data directory"))
        #expect(locked.standardError.contains("in use by another StateSync server"))

        let busy = try ServeProcess(["serve", "--port", "\(port)", "--memory"])
        #expect(await busy.waitForExit() == 1)
        #expect(busy.standardError.contains("statesync: cannot listen on 127.0.0.1:\(port): the port is already in use"))

        server.send(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test(arguments: [
        ["serve", "--port", "70000"],
        ["serve", "--bogus"],
        ["serve", "--tls-cert", "cert.pem"],
        ["serve", "--log-level", "loud"],
    ])
    func usageErrorsExitTwo(arguments: [String]) async throws {
        let process = try ServeProcess(arguments + ["--memory"])
        #expect(await process.waitForExit() == 2)
        #expect(!process.standardError.isEmpty)
    }

    @Test func badTLSFilesAndTokensFilesAreOneLineErrors() async throws {
        let directory = try Self.temporaryDirectory()
        let tls = try ServeProcess(["serve", "--memory", "--port", "0", "--tls-cert", directory + "/none.pem", "--tls-key", directory + "/none.key"])
        #expect(await tls.waitForExit() == 1)
        #expect(tls.standardError.hasPrefix("statesync: cannot load TLS certificate"))

        let tokens = directory + "/tokens"
        try "good admin\nbad wizard\n".write(toFile: tokens, atomically: true, encoding: .utf8)
        let badTokens = try ServeProcess(["serve", "--memory", "--port", "0", "--tokens-file", tokens])
        #expect(await badTokens.waitForExit() == 1)
        #expect(badTokens.standardError.contains("\(tokens):2: \"wizard\" is not a role"))
    }

    @Test func restrictReadFlagForbidsThePathAndNamesABadArgument() async throws {
        let server = try ServeProcess(["serve", "--memory", "--port", "0", "--restrict-read", "/presence=admin"])
        let port = try #require(try await server.waitForPort())
        let client = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync")
        try await client.send(#"{"type":"get","id":"g1","path":"/presence/s-1"}"#)
        #expect(try await client.receive("error")["code"] == "forbidden")
        server.send(SIGTERM)
        #expect(await server.waitForExit() == 0)

        let bad = try ServeProcess(["serve", "--memory", "--port", "0", "--restrict-read", "presence=admin"])
        #expect(await bad.waitForExit() == 1)
        #expect(bad.standardError.hasPrefix("statesync: --restrict-read presence=admin:"))
    }

    @Test func tokensFileGrantsRoles() async throws {
        let directory = try Self.temporaryDirectory()
        let tokens = directory + "/tokens"
        try "# roles\nviewer reader\n\nboss\tadmin\n".write(toFile: tokens, atomically: true, encoding: .utf8)
        let server = try ServeProcess(["serve", "--memory", "--port", "0", "--tokens-file", tokens, "--token", "cli=writer"])
        let port = try #require(try await server.waitForPort())
        for (token, role) in [("viewer", "reader"), ("boss", "admin"), ("cli", "writer")] {
            let client = try await ProtocolClient.connect("ws://127.0.0.1:\(port)/sync")
            try await client.send(.object(["type": "hello", "token": .string(token)]))
            #expect(try await client.receive("welcome")["role"]?.stringValue == role)
        }
        server.send(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }

    @Test func servesWSSWithTLSFiles() async throws {
        let files = try await TestCertificate.make(in: try Self.temporaryDirectory())
        let certificate = files.certificate, key = files.key
        let server = try ServeProcess(["serve", "--memory", "--port", "0", "--tls-cert", certificate, "--tls-key", key])
        let port = try #require(try await server.waitForPort(), "no URL: \(server.standardError)")
        #expect(server.standardOutput.hasPrefix("statesync listening on wss://127.0.0.1:"))
        let tls = try WebSocketTLS.clientConfiguration(trustedCertificatePath: certificate)
        let client = try await ProtocolClient.connect("wss://localhost:\(port)/sync", tlsConfiguration: tls)
        try await client.send(#"{"type":"hello"}"#)
        _ = try await client.receive("welcome")
        server.send(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }
}
