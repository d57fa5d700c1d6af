import Foundation
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

        let outcome = await withTaskGroup(of: Void.self) { group in
            for writer in writers { group.addTask { await writer.run(phase) } }
            for reader in slow { group.addTask { await reader.run(phase) } }
            for reader in mirrors { group.addTask { await reader.run(phase) } }
            let outcome = await drive(server: server, tally: tally, phase: phase, progress: progress)
            phase.stop()
            let result: Result<SoakReport, SoakFailure>
            switch outcome {
            case .success(let lives):
                progress("soak: load over; waiting for every client to converge")
                let convergence = await converge(writers: writers, slow: slow, mirrors: mirrors, url: url)
                result = await .success(SoakReport(
                    configuration: configuration, lives: lives, finalKiB: server.residentKiB, serverRunning: server.isRunning,
                    tally: tally.current, problems: tally.problems, convergence: convergence,
                    writers: Self.writerOutcomes(writers, initial: initial.value, final: convergence.state)))
            case .failure(let failure):
                result = .failure(failure)
            }
            phase.finish()
            await group.waitForAll()
            return result
        }
        await server.stop()
        return try outcome.get()
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

    /// Waits (up to `settleTimeout`) until every writer's last dispatch is
    /// answered, reads the server's state, then until every client's mirror
    /// equals it at the client's path.
    private func converge(writers: [SoakWriter], slow: [SlowReader], mirrors: [SoakReader], url: String) async -> SoakReport.Convergence {
        let deadline = ContinuousClock.now + .seconds(configuration.settleTimeout)
        for writer in writers {
            while await !writer.settled, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(100))  // never cancelled
            }
        }
        guard let state = try? await Self.readState(url: url) else {
            return SoakReport.Convergence(rev: nil, state: nil, converged: 0, total: configuration.clients, seconds: configuration.settleTimeout, differing: [])
        }
        let started = ContinuousClock.now
        var pending: [(name: String, path: String, read: @Sendable () async -> (online: Bool, value: JSONValue?))] = []
        pending += writers.map { writer in (writer.name, writer.path, { await writer.life.mirrored() }) }
        pending += mirrors.map { reader in (reader.life.clientID, reader.life.path, { await reader.life.mirrored() }) }
        pending += slow.map { reader in (reader.clientID, SlowReader.path, { reader.mirrored() }) }
        var differing: [String] = []
        while !pending.isEmpty, ContinuousClock.now < deadline {
            var still: [(name: String, path: String, read: @Sendable () async -> (online: Bool, value: JSONValue?))] = []
            differing = []
            for client in pending {
                let (online, value) = await Self.within(seconds: 2, client.read) ?? (false, nil)
                let expected = (try? JSONPointer(parsing: client.path)).flatMap { state.value[$0] } ?? .null
                if !(online && (value ?? .null) == expected) {
                    still.append(client)
                    differing.append("\(client.name) at \(client.path): \(online ? "online" : "not synced"), mirror \(value.map { "\($0)" } ?? "none"), server \(expected)")
                }
            }
            pending = still
            if !pending.isEmpty { try? await Task.sleep(for: .milliseconds(500)) }  // never cancelled
        }
        return SoakReport.Convergence(
            rev: state.rev, state: state.value, converged: configuration.clients - pending.count, total: configuration.clients,
            seconds: (ContinuousClock.now - started).inSeconds, differing: Array(differing.prefix(10)))
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
    private static func readState(url: String) async throws(SoakFailure) -> (rev: UInt64, value: JSONValue) {
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
