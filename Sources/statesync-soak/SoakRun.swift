import Foundation
import Synchronization
import StateSyncClient
import StateSyncCore

/// One soak run: the server and every client, the kills and restarts, then
/// the checks (see ``SoakReport``).
struct SoakRun: Sendable {
    let configuration: SoakConfiguration

    /// Runs the load for the configured duration, then lets every client
    /// converge and checks the outcome. Throws when the run cannot go on
    /// (the server does not start); a failed check is in the report.
    func execute(progress: @escaping @Sendable (String) -> Void) async throws(SoakFailure) -> SoakReport {
        let readers = configuration.clients - configuration.writers - configuration.slowReaders
        guard configuration.writers >= 0, configuration.slowReaders >= 0, readers >= 0 else {
            throw .tooManyKinds
        }
        let ownDirectory = configuration.dataDirectory == nil
        let dataDirectory = configuration.dataDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("statesync-soak-\(UUID().uuidString)").path
        defer { if ownDirectory { try? FileManager.default.removeItem(atPath: dataDirectory) } }

        let server = ServerSupervisor(configuration: configuration, dataDirectory: dataDirectory)
        try await server.start()
        let initial = try await Self.readState(url: server.url)
        let tally = SoakTally()
        let phase = SoakPhase()
        let url = server.url
        let writers = (0..<configuration.writers).map { SoakWriter(index: $0, url: url, configuration: configuration, tally: tally) }
        let slow = (0..<configuration.slowReaders).map { SlowReader(index: $0, url: url, configuration: configuration, tally: tally) }
        let mirrors = (0..<readers).map {
            SoakReader(index: $0, url: url, writers: configuration.writers, configuration: configuration, tally: tally)
        }
        progress("soak: \(configuration.clients) clients against \(url) (data \(dataDirectory)) for \(Int(configuration.duration)) s")

        // Unstructured tasks, counted as they end: a client that never
        // closes is a finding to report, not a reason for the run to hang.
        let ended = ClientsEnded()
        let clients: [@Sendable () async -> Void] =
            writers.map { writer in { @Sendable in await writer.run(phase) } }
            + slow.map { reader in { @Sendable in await reader.run(phase) } }
            + mirrors.map { reader in { @Sendable in await reader.run(phase) } }
        for client in clients {
            Task {
                await client()
                ended.count.add(1, ordering: .relaxed)
            }
        }
        let outcome = await drive(server: server, tally: tally, phase: phase, progress: progress)
        phase.stop()
        var report: SoakReport
        switch outcome {
        case .success(let lives):
            progress("soak: load over; waiting for every client to converge")
            let convergence = await Convergence(timeout: configuration.settleTimeout, progress: progress)
                .run(writers: writers, slow: slow, mirrors: mirrors) { () async throws(SoakFailure) in try await Self.readState(url: url) }
            report = await SoakReport(
                configuration: configuration, lives: lives, finalKiB: server.residentKiB, serverRunning: server.isRunning,
                tally: tally.current, problems: tally.problems, convergence: convergence,
                writers: Self.writerOutcomes(writers, initial: initial.value, final: convergence.state))
        case .failure(let failure):
            phase.finish()
            await server.stop()
            throw failure
        }
        phase.finish()
        // Closing every client from here also ends a dispatch still waiting
        // for its answer (a failed check already), so no writer holds the run.
        for writer in writers { Task { await writer.life.close() } }
        for reader in mirrors { Task { await reader.life.close() } }
        let closeDeadline = ContinuousClock.now + .seconds(30)
        while ended.count.load(ordering: .relaxed) < clients.count, ContinuousClock.now < closeDeadline {
            try? await Task.sleep(for: .milliseconds(100))  // never cancelled
        }
        report.unclosedClients = clients.count - ended.count.load(ordering: .relaxed)
        await server.stop()
        return report
    }

    /// The load: waits out the duration, SIGKILLing and restarting the server
    /// every `killEvery` seconds. Returns each server life's length and its
    /// resident memory just before its end.
    private func drive(
        server: ServerSupervisor, tally: SoakTally, phase: SoakPhase, progress: @Sendable (String) -> Void
    ) async -> Result<[SoakReport.Life], SoakFailure> {
        let start = ContinuousClock.now
        var lives: [SoakReport.Life] = []
        var lifeStart = start
        while true {
            let nextKill = (Double(lives.count) + 1) * configuration.killEvery
            let until = min(nextKill, configuration.duration)
            await phase.pause(until - (ContinuousClock.now - start).inSeconds)
            guard server.isRunning else {
                return .failure(.serverExited(output: server.printed))
            }
            guard nextKill < configuration.duration else { break }
            let life = SoakReport.Life(seconds: (ContinuousClock.now - lifeStart).inSeconds, residentKiB: server.residentKiB, acked: tally.current.acked)
            lives.append(life)
            await server.kill()
            do {
                try await server.start()
            } catch {
                return .failure(error)
            }
            lifeStart = .now
            progress("soak: kill \(lives.count) at \(Int((ContinuousClock.now - start).inSeconds)) s: RSS before \(life.residentKiB.map(String.init) ?? "?") KiB, \(tally.current.acked) acked so far; restarted")
        }
        lives.append(SoakReport.Life(seconds: (ContinuousClock.now - lifeStart).inSeconds, residentKiB: server.residentKiB, acked: tally.current.acked))
        return .success(lives)
    }

    /// Each writer's counter: at the start, at the end, and its acks.
    private static func writerOutcomes(_ writers: [SoakWriter], initial: JSONValue, final: JSONValue?) async -> [SoakReport.WriterOutcome] {
        var outcomes: [SoakReport.WriterOutcome] = []
        for writer in writers {
            let pointer = JSONPointer(tokens: ["counters", writer.name])
            outcomes.append(SoakReport.WriterOutcome(
                name: writer.name, initial: initial[pointer]?.int64Value ?? 0, acked: await writer.acked,
                final: final.map { $0[pointer]?.int64Value ?? 0 }))
        }
        return outcomes
    }

    /// The whole state and its revision, read with `get ""` by a client of its own.
    static func readState(url: String) async throws(SoakFailure) -> (rev: UInt64, value: JSONValue) {
        var configuration = StateSyncClientConfiguration(url: url)
        configuration.waitsForServer = true
        do {
            return try await StateSyncClient.withConnection(configuration) { client in try await client.get("") }
        } catch {
            throw .cannotReadState(reason: "\(error)")
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// How many client tasks have returned.
private final class ClientsEnded: Sendable {
    let count = Atomic<Int>(0)
}
