import Foundation
import StateSyncTestSupport
import TestProcessSupport
import Testing

extension AbuseTests {
    /// Hardening: a connection that holds a descriptor without using it is
    /// closed. 300 idle or half-sent sockets used to stay open for good; now a
    /// request must be complete within `--request-timeout` (408), a kept-alive
    /// connection is closed after `--keep-alive-timeout` of silence, and a
    /// WebSocket without `hello` after `--hello-timeout` (1008).
    @Suite(.timeLimit(.minutes(1)))
    struct TimeoutAbuseTests {
        /// Opens 300 connections to the port in argv[1], half of them with half
        /// a request head and half with half an upgrade, prints `ready`, then
        /// reads each to its end and prints how many were closed and answered 408.
        /// A child process holds them, not the test process: with many
        /// descriptors open, Foundation's `Process.run()` in a parallel test can
        /// crash (swift-corelibs-foundation#5472, an over-read of /proc/self/fd).
        static let halfSender = """
            import socket, sys
            port = int(sys.argv[1])
            sockets = []
            for i in range(300):
                s = socket.create_connection(("127.0.0.1", port))
                s.sendall(b"GET /health HTTP/1.1\\r\\nHost: 127" if i % 2 else b"GET /sync HTTP/1.1\\r\\nUpgrade: websocket\\r\\n")
                s.settimeout(10)
                sockets.append(s)
            print("ready", flush=True)
            closed = timed_out = 0
            last = b""
            for s in sockets:
                data = b""
                try:
                    while True:
                        chunk = s.recv(4096)
                        if not chunk:
                            closed += 1
                            break
                        data += chunk
                except OSError:
                    pass
                timed_out += data.startswith(b"HTTP/1.1 408 Request Timeout\\r\\n")
                last = data
            print("closed", closed, "timed_out", timed_out)
            print("last", last.split(b"\\r\\n\\r\\n")[-1].decode().strip())
            """

        @Test func halfSentRequestHeadsAreAnswered408AndClosedWhileHealthAnswers() async throws {
            // 5 s: short, yet long enough for the bystander's own request on a
            // machine busy with the whole test suite.
            let (server, port) = try await ServeProcess.serving(["--request-timeout", "5"])
            let python = try #require(Tools.tool("python3"), "python3 is not on PATH: run scripts/test")
            let holder = try ServeProcess(["-c", Self.halfSender, "\(port)"], executable: python)
            let ready = await holder.waitForOutput { $0.contains("ready") }
            try #require(ready.contains("ready"), "\(holder.standardError)")
            // While they hang, a bystander is answered at once.
            let start = ContinuousClock.now
            let health = try await HTTPGet.get(port: port, path: "/health")
            #expect(health.status == 200)
            #expect(ContinuousClock.now - start < .seconds(2), "/health took \(ContinuousClock.now - start)")

            #expect(await holder.waitForExit() == 0, "\(holder.standardError)")
            #expect(holder.standardOutput.contains("closed 300 timed_out 300"), "\(holder.standardOutput)")
            #expect(holder.standardOutput.contains("last the request was not complete within 5 s"), "\(holder.standardOutput)")
            #expect(try await HTTPGet.get(port: port, path: "/health").status == 200)
            await server.stop()
        }

        @Test func anIdleKeptAliveConnectionIsClosed() async throws {
            let (server, port) = try await ServeProcess.serving(["--keep-alive-timeout", "1"])
            let socket = try await onOwnThread { try RawSocket(port: port) }
            let started = ContinuousClock.now
            let (response, closed) = await onOwnThread {
                _ = socket.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                return socket.receiveUntilClosed(timeout: .seconds(10))
            }
            #expect(String(decoding: response, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(closed, "the idle kept-alive connection is still open after 10 s")
            let elapsed = ContinuousClock.now - started
            #expect(elapsed >= .milliseconds(900), "closed after \(elapsed)")
            await server.stop()
        }

        @Test func aWebSocketWithoutHelloIsClosedWith1008() async throws {
            // 3 s: short, yet long enough for the bystander's own hello on a
            // machine busy with the whole test suite.
            let (server, port) = try await ServeProcess.serving(["--hello-timeout", "3"])
            let bystander = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", name: "bystander")
            let silent = try await onOwnThread { try RawSocket(port: port) }
            let frames = await onOwnThread {
                _ = silent.send(WireFrames.upgradeRequest())
                var received: [UInt8] = []
                var frames: [WireFrames.Frame] = []
                // Up to the close frame (the TCP close follows the close timeout, 5 s later).
                while !frames.contains(where: { $0.opcode == 0x8 }), let chunk = silent.receive(timeout: .seconds(15)), !chunk.isEmpty {
                    received += chunk
                    frames = WireFrames.serverFrames(after: received)
                }
                return frames
            }
            let close = try #require(frames.first { $0.opcode == 0x8 }, "no close frame within 15 s")
            #expect(close.closeCode == 1008)
            #expect(close.text == "no hello within 3 s")
            // The bystander, who said hello, is still served.
            try await bystander.send(#"{"type":"get","id":"g","path":"/counters"}"#)
            _ = try await bystander.receive("value")
            silent.disconnect()
            await server.stop()
        }

        @Test func timeoutFlagsAreValidated() async throws {
            for flag in ["--request-timeout", "--keep-alive-timeout", "--hello-timeout"] {
                let refused = try await CLI.run(["serve", "--memory", flag, "0"])
                #expect(refused.status == 2)
                #expect(refused.errors.contains("\(flag) 0.0 is not between 0.01 and 86400 seconds"))
            }
        }
    }
}
