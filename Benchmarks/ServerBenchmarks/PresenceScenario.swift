import BoardApp
import StateSyncCore
import StateSyncProtocol
import StateSyncServer

/// Seconds per session join when `sessions` sessions join one engine (each
/// join is a journaled presence change), measured until an action
/// dispatched after the last join is acked.
func secondsPerJoin(sessions: Int) async throws -> Double {
    let engine = try await SyncEngine<Board>(journal: MemoryJournal(), configuration: .init(snapshotEvery: 1 << 40), logger: quiet)
    let sink = BenchSink()
    let start = now()
    for index in 0..<sessions {
        _ = engine.join(session: SessionInfo(id: "s-\(index)", name: "client \(index)"), clientID: "c-\(index)", role: .writer, sink: sink)
    }
    engine.handle(.dispatch(id: "last", action: increment("hits")), from: "s-0")
    await sink.wait(forTotal: 1)
    let elapsed = now() - start
    await engine.shutdown()
    return elapsed / Double(sessions)
}

/// Seconds per session join and per leave with `present` sessions already
/// present: `present` join first (untimed), then `sessions` more join and
/// leave again one at a time, each timed until an action dispatched after
/// it is acked (so each is a journaled presence change among `present`).
func secondsPerJoinAndLeave(present: Int, sessions: Int) async throws -> (join: Double, leave: Double) {
    let engine = try await SyncEngine<Board>(journal: MemoryJournal(), configuration: .init(snapshotEvery: 1 << 40), logger: quiet)
    let sink = BenchSink()
    let writer = BenchSink()
    _ = engine.join(session: SessionInfo(id: "writer", name: "writer"), clientID: "cw", role: .writer, sink: writer)
    for index in 0..<present {
        _ = engine.join(session: SessionInfo(id: "s-\(index)", name: "client \(index)"), clientID: "c-\(index)", role: .writer, sink: sink)
    }
    var answers = 0
    func settle() async {
        answers += 1
        engine.handle(.dispatch(id: "settle\(answers)", action: increment("hits")), from: "writer")
        await writer.wait(forTotal: answers)
    }
    await settle()
    var joining = 0.0
    var leaving = 0.0
    for index in 0..<sessions {
        let id = "extra-\(index)"
        var start = now()
        _ = engine.join(session: SessionInfo(id: id, name: id), clientID: nil, role: .reader, sink: sink)
        await settle()
        joining += now() - start
        start = now()
        engine.leave(session: id)
        await settle()
        leaving += now() - start
    }
    // The settling increment alone, subtracted from both.
    var settling = 0.0
    for _ in 0..<sessions {
        let start = now()
        await settle()
        settling += now() - start
    }
    await engine.shutdown()
    return ((joining - settling) / Double(sessions), (leaving - settling) / Double(sessions))
}
