import NIOCore
import StateSyncCore
import StateSyncProtocol
import WebSocket

/// A client whose connection opened.
struct ConnectedClient: Sendable {
    let index: Int
    let loop: any EventLoop
    let handler: SimulatedClientHandler
    let outbound: WebSocketOutbound
}

/// How the ramp-up went.
struct RampOutcome: Sendable {
    var clients: [ConnectedClient]
    var seconds: Double
}

extension LoadRunner {
    /// The protocol's subprotocol name.
    static let subprotocol = ProtocolVersion.subprotocol

    /// Opens every connection, at most `connectConcurrency` handshakes at a
    /// time and `connectRate` started a second, then waits until each opened
    /// client has its snapshots (or the drain timeout passes without progress).
    func connectAll(shared: RunShared, loops: RunLoops, phase: PhaseClock) async -> RampOutcome {
        phase.enter(.connecting, planned: nil)
        let start = ContinuousClock.now
        let clients = await openPaced(scenario.clients) { index in await connect(index, shared: shared, loops: loops) }
        if !(await waitUntil(clients.count) { shared.counters.ready.current }) {
            let ready = shared.counters.ready.current
            shared.problems.note("\(clients.count - ready) connected clients never got their snapshots")
            shared.counters.errors.bump(clients.count - ready)
        }
        let elapsed = start.duration(to: .now)
        return RampOutcome(clients: clients, seconds: elapsed.inSeconds)
    }

    /// Calls `open` for `0..<count`, at most `connectConcurrency` at a time
    /// and `connectRate` started a second; returns the clients that opened,
    /// by index.
    func openPaced(_ count: Int, _ open: @escaping @Sendable (Int) async -> ConnectedClient?) async -> [ConnectedClient] {
        let start = ContinuousClock.now
        var clients: [ConnectedClient] = []
        clients.reserveCapacity(count)
        await withTaskGroup(of: ConnectedClient?.self) { group in
            var next = 0
            func startNext() {
                let position = next
                next += 1
                group.addTask { await open(position) }
            }
            /// Waits until `next` is due at the connect rate (a schedule, not a condition).
            func paced() async {
                let due = start + .seconds(Double(next) / scenario.connectRate)
                if due > .now { try? await Task.sleep(until: due) }   // cancelled: the run is torn down, start at once
            }
            while next < min(scenario.connectConcurrency, count) {
                await paced()
                startNext()
            }
            for await client in group {
                if let client { clients.append(client) }
                if next < count {
                    await paced()
                    startNext()
                }
            }
        }
        return clients.sorted { $0.index < $1.index }
    }

    private func connect(_ index: Int, shared: RunShared, loops: RunLoops) async -> ConnectedClient? {
        let slot = loops.slot(index)
        let loop = loops.loops[slot]
        let recorder = loops.recorders[slot]
        var paths: [(JSONPointer, PathTable.ID)] = []
        for template in scenario.subscriptions {
            let text = template.render(client: index, random: 0, sequence: 0)
            do {
                paths.append((try JSONPointer(parsing: text), shared.ledgers[scenario.storeIndex(ofClient: index)].addSubscription(text)))
            } catch {
                shared.problems.note("client \(index): subscription path \(text): \(error)")  // validated before: not expected
                shared.counters.failedConnects.bump()
                return nil
            }
        }
        do {
            let handler = try await loop.submit { [paths] in
                SimulatedClientHandler(client: NIOLoopBound(
                    SimulatedClient(index: index, shared: shared, recorder: recorder.value, subscriptionPaths: paths),
                    eventLoop: loop))
            }.get()
            let outbound = try await open(index, handler: handler, loop: loop)
            shared.counters.connected.bump()
            return ConnectedClient(index: index, loop: loop, handler: handler, outbound: outbound)
        } catch {
            shared.counters.failedConnects.bump()
            shared.problems.note("client \(index): cannot connect: \(error)")
            return nil
        }
    }

    /// Opens client `index`'s connection with `handler`: a new client's, or
    /// one the reconnect storm dropped.
    func open(_ index: Int, handler: SimulatedClientHandler, loop: any EventLoop) async throws -> WebSocketOutbound {
        var options = WebSocketChannelOptions()
        options.localAddress = scenario.sourceAddress(ofClient: index)
        return try await WebSocketClient.connect(
            url: scenario.urls[index % scenario.urls.count], subprotocols: [Self.subprotocol], configuration: Self.connectionConfiguration,
            options: options, group: loop, eventLoopHandler: handler)
    }

    /// No compression (it would measure zlib, not the store), no pings of its own (the
    /// server's keep connections alive), no idle cut (a subscriber may hear nothing).
    static var connectionConfiguration: WebSocketConfiguration {
        WebSocketConfiguration(pingInterval: nil, idleTimeout: nil, compression: nil)
    }

    /// Polls (every 20 ms) until `count` reaches `target`; gives up
    /// (returning `false`) when it has not moved for the drain timeout.
    func waitUntil(_ target: Int, reach count: () -> Int) async -> Bool {
        var last = -1
        var lastChange = ContinuousClock.now
        while count() < target {
            let current = count()
            if current != last {
                last = current
                lastChange = .now
            } else if lastChange.duration(to: .now) > scenario.drainTimeout {
                return false
            }
            do {
                try await Task.sleep(for: .milliseconds(20))
            } catch {
                return false  // cancelled: the run is being torn down
            }
        }
        return true
    }

    /// Closes every connection (1000) and waits until they are closed.
    static func closeAll(_ clients: [ConnectedClient], loops: RunLoops) async {
        var closed: [EventLoopFuture<Void>] = []
        for client in clients {
            let handler = client.handler
            client.loop.execute { handler.client.value.close() }
            closed.append(client.outbound.channel.closeFuture)
        }
        guard let loop = loops.loops.first else { return }
        try? await EventLoopFuture.andAllComplete(closed, on: loop).get()  // andAllComplete never fails
    }
}
