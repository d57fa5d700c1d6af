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
