import Foundation
import StateSyncClient
import StateSyncCore

/// The end of a soak run: once every writer's last dispatch is answered, compares every client's
/// mirror with the server's state every half second until all match or the timeout passes.
struct Convergence: Sendable {
    /// One client as the comparison sees it.
    private struct Client: Sendable {
        var name: String
        var path: String
        var read: @Sendable () async -> (online: Bool, value: JSONValue?)
    }

    /// Seconds the writers' last answers may take, and again the mirrors.
    let timeout: Double
    let progress: @Sendable (String) -> Void

    func run(
        writers: [SoakWriter], slow: [SlowReader], mirrors: [SoakReader],
        readState: () async throws(SoakFailure) -> (rev: UInt64, value: JSONValue)
    ) async -> SoakReport.Convergence {
        let total = writers.count + slow.count + mirrors.count
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1_000))
        var unsettled = writers.count
        while unsettled > 0, ContinuousClock.now < deadline {
            unsettled = 0
            for writer in writers where await !writer.settled { unsettled += 1 }
            if unsettled > 0 { try? await Task.sleep(for: .milliseconds(200)) }  // never cancelled
        }
        progress("soak: \(writers.count - unsettled) of \(writers.count) writers have their last answer")
        for writer in writers where await !writer.settled {
            let status = await writer.life.client.status
            progress("soak: \(writer.name) still waits: \(status.connection), \(status.connections) connections, \(status.resentDispatches) re-sent, rev \(status.rev)")
        }
        guard let state = try? await readState() else {
            return SoakReport.Convergence(rev: nil, state: nil, unsettledWriters: unsettled, converged: 0, total: total, seconds: timeout, differing: [])
        }
        // The comparison gets its own timeout: writers that used all of theirs
        // must not keep the mirrors from being compared.
        let started = ContinuousClock.now
        let compareDeadline = started + .milliseconds(Int64(timeout * 1_000))
        var pending = writers.map { writer in Client(name: writer.name, path: writer.path) { await writer.life.mirrored() } }
        pending += mirrors.map { reader in Client(name: reader.life.clientID, path: reader.life.path) { await reader.life.mirrored() } }
        pending += slow.map { reader in Client(name: reader.clientID, path: SlowReader.path) { reader.mirrored() } }
        var differing: [String] = []
        while !pending.isEmpty, ContinuousClock.now < compareDeadline {
            let pass = await Self.compare(pending, with: state.value)
            pending = pass.map(\.client)
            differing = pass.map(\.difference)
            progress("soak: \(total - pending.count) of \(total) mirrors equal the server's state at rev \(state.rev)"
                + (pending.count <= 5 ? differing.map { "\n  \($0)" }.joined() : ""))
            if !pending.isEmpty { try? await Task.sleep(for: .milliseconds(500)) }  // never cancelled
        }
        return SoakReport.Convergence(
            rev: state.rev, state: state.value, unsettledWriters: unsettled, converged: total - pending.count, total: total,
            seconds: (ContinuousClock.now - started).inSeconds, differing: Array(differing.prefix(10)))
    }

    /// The clients whose mirror differs from `state`, each with what differs
    /// (every client read at once; a read taking over 2 s counts as differing).
    private static func compare(_ clients: [Client], with state: JSONValue) async -> [(client: Client, difference: String)] {
        await withTaskGroup(of: (Client, String)?.self) { group in
            for client in clients {
                group.addTask {
                    let (online, value) = await within(seconds: 2, client.read) ?? (false, nil)
                    let expected = (try? JSONPointer(parsing: client.path)).flatMap { state[$0] } ?? .null
                    guard !(online && (value ?? .null) == expected) else { return nil }
                    let mirror = value.map { "\($0)" } ?? "none"
                    return (client, "\(client.name) at \(client.path): \(online ? "online" : "not synced"), mirror \(mirror), server \(expected)")
                }
            }
            var differing: [(client: Client, difference: String)] = []
            for await result in group {
                if let (client, difference) = result { differing.append((client, difference)) }
            }
            return differing
        }
    }

    /// `read()`'s answer, or `nil` when it takes longer than `seconds` (a
    /// mirror re-syncing waits for its snapshot; the read is left to finish
    /// when its client closes).
    private static func within(
        seconds: Double, _ read: @escaping @Sendable () async -> (online: Bool, value: JSONValue?)
    ) async -> (online: Bool, value: JSONValue?)? {
        let (answers, answer) = AsyncStream.makeStream(of: (online: Bool, value: JSONValue?).self)
        Task {
            answer.yield(await read())
            answer.finish()
        }
        let timer = Task {
            try? await Task.sleep(for: .milliseconds(Int64(seconds * 1_000)))  // cancelled once answered
            answer.finish()
        }
        var iterator = answers.makeAsyncIterator()
        let first = await iterator.next()
        timer.cancel()
        return first
    }
}
