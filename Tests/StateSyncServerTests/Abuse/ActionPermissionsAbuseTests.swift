import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

extension AbuseTests {
    /// Hardening: `--restrict-action TYPE=ROLE` keeps an action type to a role
    /// and above, over the WebSocket and `POST /api/dispatch` alike; a writer's
    /// `resetCounter` cannot wipe what everyone else counted.
    @Suite(.timeLimit(.minutes(1)))
    struct ActionPermissionsAbuseTests {
        @Test func aRestrictedActionIsForbiddenBelowItsRoleAndTheStateIsUntouched() async throws {
            let server = try ServeProcess([
                "serve", "--memory", "--port", "0", "--token", "w=writer", "--token", "root=admin",
                "--restrict-action", "resetCounter=admin",
            ])
            let port = try #require(try await server.waitForPort(), "no URL printed: \(server.standardError)")
            let url = "ws://127.0.0.1:\(port)/sync"
            let bystander = try await ProtocolClient.joined(url, clientID: "bystander", token: "w")
            try await bystander.send(#"{"type":"dispatch","id":"i1","action":{"type":"increment","counter":"hits","by":7}}"#)
            #expect(try await bystander.receive("ack")["id"] == "i1")

            let writer = try await ProtocolClient.joined(url, clientID: "writer", token: "w")
            try await writer.send(#"{"type":"dispatch","id":"r1","action":{"type":"resetCounter","counter":"hits"}}"#)
            let refused = try await writer.receive("reject")
            #expect(refused["id"] == "r1")
            #expect(refused["code"] == "forbidden")
            #expect(refused["message"] == "action resetCounter needs role admin or above; this session's role is writer")
            // Still open, and its other actions pass.
            try await writer.send(#"{"type":"dispatch","id":"i2","action":{"type":"increment","counter":"hits"}}"#)
            #expect(try await writer.receive("ack")["id"] == "i2")

            let http = try await Curl.post(
                port: port, "/api/dispatch", #"{"type":"resetCounter","counter":"hits"}"#, headers: ["Authorization: Bearer w"])
            #expect(http.status == 403)
            #expect(try http.json["code"] == "forbidden")

            // The bystander's count survived; an admin may reset it.
            try await bystander.send(#"{"type":"get","id":"g","path":"/counters/hits"}"#)
            #expect(try await bystander.receive("value")["value"] == 8)
            let admin = try await Curl.post(
                port: port, "/api/dispatch", #"{"type":"resetCounter","counter":"hits"}"#, headers: ["Authorization: Bearer root"])
            #expect(admin.status == 200)
            try await bystander.send(#"{"type":"get","id":"g2","path":"/counters/hits"}"#)
            #expect(try await bystander.receive("value")["value"] == 0)
            await server.stop()
        }

        @Test func aMalformedRestrictionIsRefusedAtStartup() async throws {
            for (argument, message) in [
                ("resetCounter", "--restrict-action resetCounter: expected TYPE=ROLE, e.g. resetCounter=admin"),
                ("resetCounter=boss", "--restrict-action resetCounter=…: \"boss\" is not a role (reader, writer or admin)"),
            ] {
                let server = try ServeProcess(["serve", "--memory", "--port", "0", "--restrict-action", argument])
                #expect(await server.waitForExit() != 0)
                #expect(server.standardError.contains(message), "\(server.standardError)")
            }
        }
    }
}
