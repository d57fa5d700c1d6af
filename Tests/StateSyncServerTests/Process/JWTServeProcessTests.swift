import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// Per-store JWTs against the real `statesync serve --jwt-key-file`: an
/// ES256 public key and an HS256 secret, each way a token is refused, a
/// reader writing, and a refresh in place.
@Suite(.timeLimit(.minutes(1)))
struct JWTServeProcessTests {
    @Test func anES256KeyFileGivesEachTokenItsStores() async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let pair = TestJWT.ES256Pair()
            let keyFile = directory + "/jwt-public.pem"
            try pair.publicPEM.write(toFile: keyFile, atomically: true, encoding: .utf8)
            let (server, port) = try await ServeProcess.serving(["--jwt-key-file", keyFile])
            let url = "ws://127.0.0.1:\(port)/sync"

            // Refused at hello, each saying why: another key, expired.
            let forged = try await TestJWT.ES256Pair().sign(TestClaims(role: "admin"))
            let expired = try await pair.sign(TestClaims(role: "admin", lifetime: -10))
            for (token, reason) in [(forged, "its signature does not verify"), (expired, "it expired at")] {
                let client = try await ProtocolClient.connect(url)
                try await client.send(.object(["type": "hello", "token": .string(token)]))
                let messages = try await client.drainUntilClosed()
                #expect(messages.first?["code"] == "unauthorized")
                #expect(messages.first?["message"]?.stringValue?.contains(reason) == true, "\(messages)")
                #expect(client.closeCode == 1008)
            }

            let token = try await pair.sign(TestClaims(stores: ["team-1-*": "writer", "lobby": "reader"]))
            let alice = try await ProtocolClient.joined(url, token: token)
            try await alice.send(#"{"type":"subscribe","store":"team-1-board","id":"s1","path":"/counters"}"#)
            _ = try await alice.receive("snapshot")
            // Another store than the pattern's: forbidden, and the connection goes on.
            try await alice.send(#"{"type":"get","store":"team-2-board","id":"g1","path":""}"#)
            #expect(try await alice.receive("error")["code"] == "forbidden")
            // A reader writing: rejected forbidden (the lobby exists once a writer made it).
            let writer = try await ProtocolClient.joined(url, token: try await pair.sign(TestClaims(role: "writer")))
            try await writer.send(#"{"type":"dispatch","store":"lobby","id":"w1","action":{"type":"increment","counter":"n"}}"#)
            _ = try await writer.receive("ack")
            try await alice.send(#"{"type":"dispatch","store":"lobby","id":"a1","action":{"type":"increment","counter":"n"}}"#)
            #expect(try await alice.receive("reject")["code"] == "forbidden")

            // Refresh in place: the subscription in team-1-board goes on.
            let fresh = try await pair.sign(TestClaims(stores: ["team-1-*": "writer"], lifetime: 7_200))
            try await alice.send(.object(["type": "auth", "id": "t1", "token": .string(fresh)]))
            #expect(try await alice.receive("authorized")["id"] == "t1")
            try await alice.send(#"{"type":"dispatch","store":"team-1-board","id":"a2","action":{"type":"increment","counter":"n","by":3}}"#)
            let patch = try await alice.receive("patch")
            #expect(patch["id"] == "s1")
            #expect(try await alice.receive("ack")["id"] == "a2")
            await server.stop()
        }
    }

    @Test func anHS256SecretFileWorksAndAShortOneIsRefusedAtStart() async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let short = directory + "/short"
            try "not-long-enough".write(toFile: short, atomically: true, encoding: .utf8)
            let refused = try ServeProcess(["serve", "--memory", "--port", "0", "--jwt-key-file", short])
            #expect(await refused.waitForExit() == 1)
            #expect(refused.standardError.contains("an HS256 secret must have at least 32 bytes; this one has 15"), "\(refused.standardError)")

            let secret = directory + "/secret"
            try TestJWT.secret.write(toFile: secret, atomically: true, encoding: .utf8)
            chmod(secret, 0o600)
            let (server, port) = try await ServeProcess.serving(["--jwt-key-file", secret])
            let client = try await ProtocolClient.joined(
                "ws://127.0.0.1:\(port)/sync", token: try await TestJWT.hs256(TestClaims(role: "reader")))
            #expect(client.welcome["role"] == "reader")
            #expect(!server.standardError.contains("can be read by other users"))
            await server.stop()
        }
    }
}
