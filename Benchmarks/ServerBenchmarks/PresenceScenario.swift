import BoardApp
import StateSyncCore
import StateSyncJournal
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
/// present: `present` join first (untimed); then, `rounds` times, a group of
/// `group` more sessions joins and is settled (an action dispatched after
/// the group is acked), then leaves and is settled again. Each group is
/// timed; the settling action's own time, measured alone between groups,
/// is subtracted, and the median group gives the figure. A group rather
/// than one session: one join costs a few microseconds, less than the
/// scatter of one settling round trip.
func secondsPerJoinAndLeave(present: Int, group: Int = 200, rounds: Int = 15) async throws -> (join: Double, leave: Double) {
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
    func timed(_ work: () async -> Void) async -> Double {
        let start = now()
        await work()
        return now() - start
    }
    await settle()
    var joins: [Double] = []
    var leaves: [Double] = []
    for round in 0..<rounds {
        let ids = (0..<group).map { "extra-\(round)-\($0)" }
        let settling = await timed(settle)
        let joining = await timed {
            for id in ids { _ = engine.join(session: SessionInfo(id: id, name: id), clientID: nil, role: .reader, sink: sink) }
            await settle()
        }
        let leaving = await timed {
            for id in ids { engine.leave(session: id) }
            await settle()
        }
        joins.append((joining - settling) / Double(group))
        leaves.append((leaving - settling) / Double(group))
    }
    await engine.shutdown()
    return (joins.sorted()[rounds / 2], leaves.sorted()[rounds / 2])
}
