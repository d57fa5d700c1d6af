import Foundation
import StateSyncTestSupport
import TestProcessSupport
import Testing

extension AbuseTests {
    /// Hardening: `--ping-interval` and `--idle-timeout` do what their help says,
    /// so an operator can cut silent connections sooner than the defaults (30 s, 90 s).
    @Suite(.timeLimit(.minutes(1)))
    struct KeepaliveFlagsAbuseTests {
        /// A raw socket that upgrades, then reads frames and never answers a
        /// ping; prints the pings seen, the close code and the seconds it took.
        private static let silentClient = #"""
            import base64, os, socket, struct, sys, time
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            key = base64.b64encode(os.urandom(16)).decode()
            s.sendall(("GET /sync HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       "Sec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
            data = b""
            while b"\r\n\r\n" not in data:
                data += s.recv(4096)
            data = data.split(b"\r\n\r\n", 1)[1]
            start, pings, code = time.monotonic(), 0, None
            def need(n):
                global data
                while len(data) < n:
                    chunk = s.recv(4096)
                    if not chunk: raise EOFError
                    data += chunk
            try:
                while code is None:
                    need(2); opcode, length = data[0] & 0x0F, data[1] & 0x7F
                    need(2 + length); payload, data = data[2:2 + length], data[2 + length:]
                    if opcode == 0x9: pings += 1
                    if opcode == 0x8: code = struct.unpack("!H", payload[:2])[0]
            except EOFError:
                pass
            print(pings, code, round(time.monotonic() - start, 1))
            """#

        @Test func aSilentConnectionIsPingedThenClosedAfterTheFlagsTimes() async throws {
            let (server, port) = try await ServeProcess.serving(["--ping-interval", "1", "--idle-timeout", "3"])
            let url = "ws://127.0.0.1:\(port)/sync"
            let bystander = try await ProtocolClient.joined(url, name: "bystander")
            let python = try #require(Tools.tool("python3"))
            let silent = try await Subprocess.run([python.path, "-c", Self.silentClient, "\(port)"])
            let fields = silent.output.split(separator: " ").map(String.init)
            #expect(fields.count == 3, "\(silent.output)\(silent.errors)")
            #expect((Int(fields.first ?? "") ?? 0) >= 1)   // pinged after a second of silence
            #expect(fields.dropFirst().first == "1001")     // then closed: idle timeout
            #expect((Double(fields.last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 99) < 10)
            // The bystander's client answers pings, so it is still served.
            try await bystander.send(#"{"type":"get","id":"b","path":"/counters"}"#)
            _ = try await bystander.receive("value")
            await server.stop()
        }
    }
}
