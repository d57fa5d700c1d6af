import Foundation
import StateSyncTestSupport
import TestProcessSupport
import Testing

extension AbuseTests {
    /// Hardening: connections are bounded in all (`--max-connections`) and per
    /// client address (`--max-connections-per-ip`); beyond either a request is
    /// answered 503 and closed while everyone else is served. And when the
    /// process runs out of descriptors, accepting pauses instead of spinning.
    @Suite(.timeLimit(.minutes(1)))
    struct ConnectionLimitsAbuseTests {
        /// What `request` gets on a fresh connection from `source`, up to the close.
        static func answer(port: Int, source: String? = nil, request: String = WireFrames.upgradeRequest()) throws -> String {
            let socket = try RawSocket(port: port, source: source)
            _ = socket.send(request)
            return String(decoding: socket.receiveUntilClosed(timeout: .seconds(5)).bytes, as: UTF8.self)
        }

        /// Polls `/health` (every 50 ms, up to `timeout`) until it answers 200:
        /// a closed socket is released when the server reads its end, which
        /// cannot be awaited from here.
        static func waitForHealth(port: Int, timeout: Duration = .seconds(10)) async throws -> Bool {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if let health = try? await HTTPGet.get(port: port, path: "/health"), health.status == 200 { return true }
                try await Task.sleep(for: .milliseconds(50))
            }
            return false
        }

        /// `count` connections that each had one request answered and stay
        /// open (kept alive): all of them are accepted and counted.
        static func keptAlive(_ count: Int, port: Int) async throws -> [RawSocket] {
            try await onOwnThread {
                try (0..<count).map { _ in
                    let socket = try RawSocket(port: port)
                    _ = socket.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    let answer = String(decoding: socket.receive(timeout: .seconds(5)) ?? [], as: UTF8.self)
                    try #require(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answer)")
                    return socket
                }
            }
        }

        @Test func beyondTheGlobalLimitAnUpgradeGets503() async throws {
            let (server, port) = try await ServeProcess.serving(["--max-connections", "20"])
            let offenders = try await Self.keptAlive(20, port: port)
            let refused = try await onOwnThread { try Self.answer(port: port) }
            #expect(refused.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"), "\(refused)")
            #expect(refused.hasSuffix("the server is at its limit of 20 connections; try again later\n"))

            for offender in offenders { offender.disconnect() }
            #expect(try await Self.waitForHealth(port: port), "/health does not answer after the offenders left")
            let bystander = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", name: "bystander")
            try await bystander.send(#"{"type":"get","id":"g","path":"/counters"}"#)
            _ = try await bystander.receive("value")
            await server.stop()
        }

        @Test func beyondThePerAddressLimitOnlyThatAddressGets503() async throws {
            let (server, port) = try await ServeProcess.serving(["--max-connections-per-ip", "10"])
            let offenders = try await Self.keptAlive(10, port: port)
            let refused = try await onOwnThread { try Self.answer(port: port) }
            #expect(refused.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"), "\(refused)")
            #expect(refused.hasSuffix("too many connections from 127.0.0.1 (at most 10); close some first\n"))

            // Another address is served meanwhile, upgrade included.
            let other = try await onOwnThread { try Self.answer(port: port, source: "127.0.0.2", request: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n") }
            #expect(other.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(other)")
            let upgrade = try await onOwnThread { () throws -> String in
                let socket = try RawSocket(port: port, source: "127.0.0.2")
                _ = socket.send(WireFrames.upgradeRequest())
                return String(decoding: socket.receive(timeout: .seconds(5)) ?? [], as: UTF8.self)
            }
            #expect(upgrade.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"), "\(upgrade)")

            for offender in offenders { offender.disconnect() }
            #expect(try await Self.waitForHealth(port: port))
            _ = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", name: "back")
            await server.stop()
        }

        /// CPU seconds (user + system) the process has used: fields 14 and 15 of `/proc/PID/stat`.
        static func cpuSeconds(_ pid: Int32) throws -> Double {
            let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            // The command name (field 2) is in parentheses and may contain spaces: count after it.
            let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
            let ticks = try #require(Double(fields[11])) + #require(Double(fields[12]))
            return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
        }

        @Test func outOfDescriptorsAcceptingPausesAndResumes() async throws {
            let server = try ServeProcess(
                ["-c", #"ulimit -n 64 && exec "$0" serve --memory --port 0"#, ServeProcess.executable.path],
                executable: URL(fileURLWithPath: "/bin/sh"))
            let port = try #require(try await server.waitForPort(), "\(server.standardError)")
            // 100 connections: the kernel completes them all (the backlog), the
            // server can accept only what 64 descriptors allow.
            #expect(server.standardError.contains("max connections is 16384, but this process may open 64 files (ulimit -n)"),
                    "no warning at start: \(server.standardError)")
            let sockets = try await onOwnThread { try (0..<100).map { _ in try RawSocket(port: port) } }
            // The accepts run into EMFILE, and the server says so.
            #expect(try await eventually {
                server.standardError.contains("accepting paused: this process is out of file descriptors (its open-file limit, ulimit -n, is 64)")
            }, "\(server.standardError)")
            let before = try Self.cpuSeconds(server.processIdentifier)
            try await Task.sleep(for: .seconds(2))
            let used = try Self.cpuSeconds(server.processIdentifier) - before
            #expect(used < 0.5, "the server used \(used) s of CPU in 2 s while out of descriptors")

            for socket in sockets { socket.disconnect() }
            #expect(try await Self.waitForHealth(port: port), "/health does not answer once descriptors are free")
            let metrics = try await HTTPGet.get(port: port, path: "/metrics").body
            let pauses = metrics.split(separator: "\n").first { $0.hasPrefix("statesync_accepts_paused_total ") }
            #expect(pauses.flatMap { Double($0.split(separator: " ").last ?? "") }.map { $0 >= 1 } == true, "\(metrics)")
            await server.stop()
        }
    }
}
