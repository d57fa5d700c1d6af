// wsload: the benchmarks' WebSocket load client, on swift-nio's
// NIOWebSocketClientUpgrader. The hot path runs in channel handlers on the
// event loops; Swift concurrency only orchestrates the run.
//
//   --mode echo       every client keeps --inflight messages of --size bytes in
//                     flight for --seconds: round trips/s and RTT percentiles
//   --mode broadcast  client #0 sends --rate messages/s for --seconds; every client
//                     (the sender too) measures delivery latency: deliveries/s,
//                     latency percentiles, missing deliveries
//
// The last line of output:
//   RESULT mode=… clients=… msgs_per_s=… p50_us=… p99_us=… p999_us=… errors=… [missing=…]

import ArgumentParser
import Histogram
import NIOCore
import NIOPosix

extension Mode: ExpressibleByArgument {}

@main
struct WSLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wsload",
        abstract: "WebSocket load generator (swift-nio client upgrade, masked frames)."
    )

    @Option(help: "Target ws://HOST:PORT/PATH (default ws://127.0.0.1:9001/<mode>).")
    var url: String?

    @Option(help: "echo | broadcast")
    var mode: Mode = .echo

    @Option(help: "Number of WebSocket connections.")
    var clients: Int = 100

    @Option(help: "Message size in bytes (echo >= 16, broadcast >= 32).")
    var size: Int = 64

    @Option(help: "Echo: messages in flight per connection.")
    var inflight: Int = 1

    @Option(help: "Measured duration in seconds.")
    var seconds: Double = 10

    @Option(help: "Broadcast: messages per second sent by client #0.")
    var rate: Double = 100

    @Option(help: "Event loop threads (default: number of cores).")
    var threads: Int = System.coreCount

    @Option(help: "Connection attempts in parallel during the ramp-up.")
    var connectConcurrency: Int = 64

    @Option(help: "Seconds to wait for outstanding messages after the run.")
    var drainTimeout: Double = 5

    mutating func validate() throws {
        guard self.clients >= 1 else { throw ValidationError("--clients must be >= 1") }
        guard self.inflight >= 1 else { throw ValidationError("--inflight must be >= 1") }
        guard self.seconds > 0 else { throw ValidationError("--seconds must be > 0") }
        guard self.rate > 0 else { throw ValidationError("--rate must be > 0") }
        let minSize = self.mode == .echo ? 16 : 32
        guard self.size >= minSize else { throw ValidationError("--size must be >= \(minSize) for \(self.mode)") }
    }

    func run() async throws {
        let target = try Target(url: self.url ?? "ws://127.0.0.1:9001/\(self.mode.rawValue)")
        let group = MultiThreadedEventLoopGroup(numberOfThreads: self.threads)
        let allStats = group.makeIterator().map { LoopStats(eventLoop: $0) }
        let config = LoadConfig(mode: self.mode, size: self.size, inflight: self.inflight)

        // 1. Every connection is open and upgraded before the measurement starts.
        let t0 = nowNanos()
        let (connections, connectErrors) = try await self.connectAll(group: group, stats: allStats, config: config, target: target)
        print("connected \(connections.count)/\(self.clients) clients to \(target.host):\(target.port)\(target.path) in \(fixed(Double(nowNanos() - t0) / 1e9, 2)) s")

        // 2. The run.
        var measuredSeconds = self.seconds
        var missing: UInt64 = 0
        var sentCount: UInt64 = 0
        if !connections.isEmpty {
            switch self.mode {
            case .echo:
                measuredSeconds = try await self.runEcho(connections)
            case .broadcast:
                (sentCount, missing, measuredSeconds) = try await self.runBroadcast(connections, stats: allStats)
            }
        }

        // 3. The close handshake; a connection still open after 5 s is force-closed.
        let uncleanCloses = await Self.closeAll(connections)

        // 4. Merge the loops' figures and report.
        var merged = LoopStats.makeHistogram()
        var messages: UInt64 = 0
        var errors: UInt64 = connectErrors + uncleanCloses
        for stats in allStats {
            let snapshot = try await stats.snapshot().get()
            merged.add(snapshot.histogram)
            messages += snapshot.messages
            errors += snapshot.errors
        }
        try await group.shutdownGracefully()

        func microseconds(_ percentile: Double) -> String {
            merged.totalCount == 0 ? "0" : fixed(Double(merged.valueAtPercentile(percentile)) / 1000.0, 1)
        }
        var summary = "messages=\(messages) seconds=\(fixed(measuredSeconds, 3))"
        summary += " mean_us=\(fixed(merged.mean / 1000, 1)) max_us=\(fixed(Double(merged.max) / 1000, 1))"
        summary += " connect_errors=\(connectErrors) unclean_closes=\(uncleanCloses)"
        if self.mode == .broadcast {
            summary += " sent=\(sentCount) expected=\(sentCount * UInt64(connections.count))"
        }
        print(summary)
        var line = "RESULT mode=\(self.mode.rawValue) clients=\(self.clients) msgs_per_s=\(fixed(Double(messages) / measuredSeconds, 0)) "
        line += "p50_us=\(microseconds(50)) p99_us=\(microseconds(99)) p999_us=\(microseconds(99.9)) errors=\(errors)"
        if self.mode == .broadcast { line += " missing=\(missing)" }
        print(line)
    }

    /// Opens `clients` connections, `connectConcurrency` at a time.
    private func connectAll(
        group: MultiThreadedEventLoopGroup, stats: [LoopStats], config: LoadConfig, target: Target
    ) async throws -> (connections: [Connection], errors: UInt64) {
        let clients = self.clients
        return try await withThrowingTaskGroup(of: Connection?.self) { tasks in
            var connections: [Connection] = []
            var errors: UInt64 = 0
            var launched = 0
            func launch() {
                let index = launched
                launched += 1
                tasks.addTask {
                    do {
                        return try await Connection.open(group: group, stats: stats, config: config, target: target)
                    } catch {
                        if index < 3 || index % 1000 == 0 { printError("connection \(index) failed: \(error)") }
                        return nil
                    }
                }
            }
            while launched < min(self.connectConcurrency, clients) { launch() }
            for try await result in tasks {
                if let connection = result { connections.append(connection) } else { errors += 1 }
                if launched < clients { launch() }
            }
            return (connections, errors)
        }
    }

    /// Echo: every connection keeps `inflight` messages in flight until the deadline.
    private func runEcho(_ connections: [Connection]) async throws -> Double {
        let end = nowNanos() + UInt64(self.seconds * 1e9)
        var drains: [EventLoopFuture<Void>] = []
        for connection in connections {
            let promise = connection.channel.eventLoop.makePromise(of: Void.self)
            drains.append(promise.futureResult)
            connection.channel.eventLoop.execute { connection.handler.startEcho(endNanos: end, drained: promise) }
        }
        let now = nowNanos()
        if end > now { try await Task.sleep(nanoseconds: end - now) }
        for connection in connections { connection.channel.eventLoop.execute { connection.handler.stopEcho() } }
        // Wait for the echoes in flight; give up after drainTimeout.
        let drainDeadline = NIODeadline.now() + .nanoseconds(Int64(self.drainTimeout * 1e9))
        for (connection, drained) in zip(connections, drains) {
            let timeout = connection.channel.eventLoop.scheduleTask(deadline: drainDeadline) {
                connection.handler.abandonOutstanding()
            }
            try await drained.get()
            timeout.cancel()
        }
        return self.seconds
    }

    /// Broadcast: client #0 sends at a fixed rate (the k-th message at start + k/rate,
    /// so the schedule does not drift); every client counts deliveries.
    private func runBroadcast(
        _ connections: [Connection], stats: [LoopStats]
    ) async throws -> (sent: UInt64, missing: UInt64, seconds: Double) {
        let sender = connections[0]
        let total = UInt64((self.rate * self.seconds).rounded())
        let interval = 1e9 / self.rate
        let start = NIODeadline.now() + .milliseconds(20)
        let done = sender.channel.eventLoop.makePromise(of: Void.self)
        @Sendable func schedule(_ k: UInt64) {
            guard k < total else {
                done.succeed(())
                return
            }
            sender.channel.eventLoop.scheduleTask(deadline: start + .nanoseconds(Int64(Double(k) * interval))) {
                sender.handler.sendBroadcast(seq: k)
                schedule(k + 1)
            }
        }
        sender.channel.eventLoop.execute { schedule(0) }
        try await done.futureResult.get()

        // Wait until every client has every message, or drainTimeout passed.
        let expected = total * UInt64(connections.count)
        let giveUp = nowNanos() + UInt64(self.drainTimeout * 1e9)
        var delivered: UInt64 = 0
        var lastDelivery: UInt64 = 0
        while true {
            delivered = 0
            lastDelivery = 0
            for loopStats in stats {
                let snapshot = try await loopStats.snapshot().get()
                delivered += snapshot.messages
                lastDelivery = max(lastDelivery, snapshot.lastDeliveryNanos)
            }
            if delivered >= expected || nowNanos() > giveUp { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        // Deliveries per second over [first send, last delivery].
        let window = max(Double(lastDelivery) - Double(start.uptimeNanoseconds), 1) / 1e9
        return (total, expected > delivered ? expected - delivered : 0, window)
    }

    /// Closes every connection with the handshake; returns how many had to be force-closed.
    private static func closeAll(_ connections: [Connection]) async -> UInt64 {
        for connection in connections { connection.channel.eventLoop.execute { connection.handler.beginClose() } }
        let deadline = NIODeadline.now() + .seconds(5)
        var unclean: UInt64 = 0
        for connection in connections {
            let forceClose = connection.channel.eventLoop.scheduleTask(deadline: deadline) {
                connection.channel.close(promise: nil)
            }
            try? await connection.channel.closeFuture.get()  // a failed close is counted below
            forceClose.cancel()
            // The task's future fails when the cancel came first, succeeds when it ran.
            if (try? await forceClose.futureResult.get()) != nil { unclean += 1 }
        }
        return unclean
    }
}
