import NIOCore
import StateSyncCore
import StateSyncProtocol
import Synchronization
import WebSocket

/// A raw protocol connection subscribed to `/counters` that pauses after each message, so the
/// server sees a slow consumer and must coalesce. It checks its own mirror (`base` chaining),
/// disconnects at random and resumes with `since`.
final class SlowReader: Sendable {
    /// The mirror and the subscription it belongs to.
    private struct Mirror {
        var value: JSONValue?
        var rev: UInt64?
        var subscription = 0
        var subscribed = false
    }

    /// `soak-s<index>`.
    let clientID: String
    /// What it subscribes to: every counter.
    static let path = "/counters"
    private static let pointer = JSONPointer(tokens: ["counters"])
    private let url: String
    private let configuration: SoakConfiguration
    private let tally: SoakTally
    private let mirror = Mutex(Mirror())

    init(index: Int, url: String, configuration: SoakConfiguration, tally: SoakTally) {
        clientID = "soak-s\(index)"
        self.url = url
        self.configuration = configuration
        self.tally = tally
    }

    /// Connects again and again (after a kill, a random disconnect, or a
    /// refused attempt) until the run is finished.
    func run(_ phase: SoakPhase) async {
        while !phase.isFinished {
            // A small inbound buffer: the connection stops reading from the socket soon.
            let options = WebSocketChannelOptions(inboundHighWatermark: 2, inboundLowWatermark: 1)
            if let connection = try? await WebSocketClient.connect(url: url, subprotocols: [ProtocolVersion.subprotocol], options: options) {
                tally.update { $0.slowConnections += 1 }
                await session(on: connection, phase)
            }
            mirror.withLock { $0.subscribed = false }
            if !phase.isFinished { await phase.pause(Double.random(in: 0.2..<1)) }
        }
    }

    /// The mirrored value, and whether the subscription is live.
    func mirrored() -> (online: Bool, value: JSONValue?) {
        mirror.withLock { ($0.subscribed, $0.value) }
    }

    /// One connection: hello, subscribe (with `since` once known), read slowly until it closes; a
    /// watcher closes it at the random disconnect or when the run finishes, even if nothing arrives.
    private func session(on connection: WebSocketConnection, _ phase: SoakPhase) async {
        let outbound = connection.outbound
        send(.hello(clientID: clientID, token: nil, name: clientID), on: outbound)
        let disconnectAfter = SoakPhase.randomWait(mean: configuration.disconnectEvery)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await phase.pause(disconnectAfter, untilStopping: true)
                while phase.isStopping, !phase.isFinished, !Task.isCancelled { await phase.pause(1) }
                if Task.isCancelled { return }
                if !phase.isStopping { self.tally.update { $0.disconnects += 1 } }
                outbound.close(code: .normalClosure, reason: "soak disconnect", promise: nil)
            }
            var messages = connection.inbound.makeAsyncIterator()
            while let message = await messages.next() {
                handle(message, on: outbound)
                if !phase.isStopping {
                    try? await Task.sleep(for: .milliseconds(Int64(configuration.slowReadDelay * 1_000)))  // never cancelled
                }
            }
            group.cancelAll()
        }
    }

    private func handle(_ message: WebSocketMessage, on outbound: WebSocketOutbound) {
        let decoded: ServerMessage
        do {
            decoded = try MessageDecoder().decodeServerMessage(message.data.readableBytesView)
        } catch {
            return tally.problem("\(clientID): a server message does not decode: \(error)")
        }
        switch decoded {
        case .welcome:
            subscribe(on: outbound, resuming: true)
        case let .snapshot(id, rev, value):
            mirror.withLock { mirror in
                guard id == "s\(mirror.subscription)" else { return }
                mirror.value = value
                mirror.rev = rev
                mirror.subscribed = true
            }
        case let .patch(id, base, rev, ops):
            let broken: String? = mirror.withLock { mirror in
                guard id == "s\(mirror.subscription)", let value = mirror.value else { return nil }
                guard base == mirror.rev else { return "patch base \(base) after rev \(mirror.rev.map { "\($0)" } ?? "none")" }
                do {
                    mirror.value = try ops.applied(to: value)
                } catch {
                    return "patch does not apply: \(error)"
                }
                mirror.rev = rev
                mirror.subscribed = true
                return nil
            }
            if let broken {
                tally.update { $0.gaps += 1 }
                tally.problem("\(clientID): \(broken)")
                subscribe(on: outbound, resuming: false)
            }
        case let .error(_, code, text):
            tally.problem("\(clientID): error \(code.rawValue): \(text)")
        case .ack, .reject, .value, .unsubscribed, .authorized:
            break
        }
    }

    /// Subscribes under a new id: with `since` when resuming a mirror, else from scratch.
    private func subscribe(on outbound: WebSocketOutbound, resuming: Bool) {
        let (id, since): (Int, UInt64?) = mirror.withLock { mirror in
            mirror.subscription += 1
            mirror.subscribed = false
            if !resuming { mirror.rev = nil; mirror.value = nil }
            return (mirror.subscription, mirror.rev)
        }
        send(.subscribe(id: "s\(id)", path: Self.pointer, since: since), on: outbound)
    }

    private func send(_ message: ClientMessage, on outbound: WebSocketOutbound) {
        outbound.write(WebSocketMessage(kind: .text, data: ByteBuffer(bytes: MessageEncoder().encode(message))))
    }
}
