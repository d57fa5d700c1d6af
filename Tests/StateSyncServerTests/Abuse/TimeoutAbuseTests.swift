import Foundation
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// Hardening: a connection that holds a descriptor without using it is
/// closed. 300 idle or half-sent sockets used to stay open for good; now a
/// request must be complete within `--request-timeout` (408), a kept-alive
/// connection is closed after `--keep-alive-timeout` of silence, and a
/// WebSocket without `hello` after `--hello-timeout` (1008).
@Suite(.timeLimit(.minutes(1)))
struct TimeoutAbuseTests {
    @Test func halfSentRequestHeadsAreAnswered408AndClosedWhileHealthAnswers() async throws {
        let (server, port) = try await ServeProcess.serving(["--request-timeout", "2"])
        let sockets = try await onOwnThread {
            try (0..<300).map { index in
                let socket = try RawSocket(port: port)
                _ = socket.send(index.isMultiple(of: 2) ? "GET /health HTTP/1.1\r\nHost: 127" : String(WireFrames.upgradeRequest().prefix(40)))
                return socket
            }
        }
        // While they hang, a bystander is answered at once.
        let start = ContinuousClock.now
        let health = try await HTTPGet.get(port: port, path: "/health")
        #expect(health.status == 200)
        #expect(ContinuousClock.now - start < .seconds(1))

        let answers = await onOwnThread { sockets.map { $0.receiveUntilClosed(timeout: .seconds(10)) } }
        let closed = answers.filter(\.closed)
        #expect(closed.count == 300, "\(300 - closed.count) half-sent requests are still open")
        let timedOut = answers.filter { String(decoding: $0.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 408 Request Timeout\r\n") }
        #expect(timedOut.count == 300)
        #expect(answers.first.map { String(decoding: $0.bytes, as: UTF8.self) }?.hasSuffix("the request was not complete within 2 s\n") == true)
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
        #expect(closed, "the idle kept-alive connection is still open")
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(5), "closed after \(elapsed)")
        await server.stop()
    }

    @Test func aWebSocketWithoutHelloIsClosedWith1008() async throws {
        let (server, port) = try await ServeProcess.serving(["--hello-timeout", "1"])
        let bystander = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", name: "bystander")
        let silent = try await onOwnThread { try RawSocket(port: port) }
        let (received, closed) = await onOwnThread {
            _ = silent.send(WireFrames.upgradeRequest())
            return silent.receiveUntilClosed(timeout: .seconds(10))
        }
        let close = try #require(WireFrames.serverFrames(after: received).first { $0.opcode == 0x8 })
        #expect(close.closeCode == 1008)
        #expect(close.text == "no hello within 1 s")
        #expect(closed)
        // The bystander, who said hello, is still served.
        try await bystander.send(#"{"type":"get","id":"g","path":"/counters"}"#)
        _ = try await bystander.receive("value")
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
