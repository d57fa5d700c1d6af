import Foundation
import NIOHTTP1
import StateSyncCore
import StateSyncProtocol
import StateSyncTestSupport
import Testing
import WebSocket

extension AbuseTests {
    /// Hardening: a page of another site cannot use the server (Origin), and a
    /// DNS-rebinding page cannot reach a loopback server under its own name (Host).
    @Suite(.timeLimit(.minutes(1)))
    struct OriginHostAbuseTests {

        /// Whether the WebSocket handshake with `origin` succeeds.
        private static func opens(port: Int, origin: String?) async -> Bool {
            var headers = HTTPHeaders()
            if let origin { headers.add(name: "Origin", value: origin) }
            do {
                let connection = try await WebSocketClient.connect(
                    url: "ws://127.0.0.1:\(port)/sync", subprotocols: [ProtocolVersion.subprotocol], headers: headers)
                try await connection.outbound.close()
                return true
            } catch {
                return false
            }
        }

        @Test func onlyTheServersOwnOriginOrAnAllowedOneMayConnectOrDispatch() async throws {
            let (server, port) = try await ServeProcess.serving()
            #expect(await Self.opens(port: port, origin: nil))
            #expect(await Self.opens(port: port, origin: "http://127.0.0.1:\(port)"))
            #expect(!(await Self.opens(port: port, origin: "http://evil.example")))
            let forged = try await Curl.post(port: port, "/api/dispatch", #"{"type":"addTodo","title":"csrf"}"#, headers: ["Origin: http://evil.example"])
            #expect(forged.status == 403)
            #expect(try forged.json["message"]?.stringValue?.hasPrefix("origin http://evil.example is not allowed") == true)
            #expect(try await Curl.run(port: port, "/api/state?path=/todos").json["value"] == [])
            await server.stop()

            let (widened, widenedPort) = try await ServeProcess.serving(["--allow-origin", "http://evil.example"])
            #expect(await Self.opens(port: widenedPort, origin: "http://evil.example"))
            #expect(!(await Self.opens(port: widenedPort, origin: "http://other.example")))
            await widened.stop()
        }

        @Test func aLoopbackServerAnswersLoopbackHostNamesOnly() async throws {
            let (server, port) = try await ServeProcess.serving()
            let rebound = try await Curl.run(port: port, "/devtools/api/state", ["-H", "Host: attacker.example:\(port)"])
            #expect(rebound.status == 403)
            #expect(try rebound.json["code"] == "forbidden")
            for host in ["localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)"] {
                #expect(try await Curl.run(port: port, "/devtools/api/state", ["-H", "Host: \(host)"]).status == 200, "\(host)")
            }
            await server.stop()

            let (allowed, allowedPort) = try await ServeProcess.serving(["--allow-host", "board.lan"])
            #expect(try await Curl.run(port: allowedPort, "/health", ["-H", "Host: board.lan:\(allowedPort)"]).status == 200)
            await allowed.stop()
        }

    }
}
