import BoardApp
import Foundation
import Logging
import StateSyncCore
import StateSyncJournal
import StateSyncProtocol
import StateSyncServer

let quiet = Logger(label: "server-benchmarks", factory: { _ in SwiftLogNoOpLogHandler() })

/// Seconds since an arbitrary origin (monotonic).
func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// The increment action of counter `name`.
func increment(_ name: String) -> JSONObject { ["type": "increment", "counter": .string(name)] }

/// Acked actions per second: `writers` sessions dispatch `actions` increments
/// in total from concurrent tasks; the clock stops at the last ack.
func ackedActionsPerSecond(journal: any Journal, writers: Int, actions: Int, idPrefix: String = "a") async throws -> (rate: Double, appends: UInt64) {
    let metrics = BenchMetrics()
    let engine = try await SyncEngine<Board>(
        journal: journal, configuration: .init(snapshotEvery: 1 << 40), metrics: ServerMetrics(factory: metrics), logger: quiet)
    let sink = BenchSink()
    for writer in 0..<writers {
        _ = engine.join(session: SessionInfo(id: "w\(writer)", name: "w\(writer)"), clientID: "c\(writer)", role: .writer, sink: sink)
    }
    let perWriter = actions / writers
    let start = now()
    await withTaskGroup(of: Void.self) { group in
        for writer in 0..<writers {
            group.addTask {
                for index in 0..<perWriter {
                    engine.handle(.dispatch(id: "\(idPrefix)\(index)", action: increment("w\(writer)")), from: "w\(writer)")
                }
            }
        }
    }
    await sink.wait(forTotal: perWriter * writers)
    let elapsed = now() - start
    let appends = metrics.total("statesync_journal_appends_total")
    await engine.shutdown()
    return (Double(perWriter * writers) / elapsed, UInt64(appends))
}

/// Write + fsync of a 200-byte record on a plain file, per second (the
/// baseline for the SQLite journal: what one fsync costs on this disk).
func rawFsyncsPerSecond(in directory: String) -> Double {
    let path = directory + "/raw.log"
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    precondition(descriptor >= 0, "cannot create \(path)")
    defer {
        close(descriptor)
        unlink(path)
    }
    let bytes = [UInt8](repeating: 0x61, count: 200)
    let start = now()
    var count = 0
    while now() - start < 1 {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        precondition(written == bytes.count && fsync(descriptor) == 0, "write+fsync failed on \(path)")
        count += 1
    }
    return Double(count) / (now() - start)
}

/// The board reducer alone applying increments, per second (the baseline for
/// the memory journal: everything else the engine does is overhead).
func reducerOnlyPerSecond(actions: Int) -> Double {
    var state = BoardState()
    let reducer = BoardReducer()
    let session = SessionInfo(id: "w", name: "w")
    let start = now()
    for index in 0..<actions {
        let action = try! BoardAction(wireValue: increment("w\(index % 8)"))  // a valid literal action
        _ = try! reducer.reduce(into: &state, action: .dispatch(action, from: session), meta: Meta(revision: UInt64(index + 1), time: Date()))
    }
    return Double(actions) / (now() - start)
}

/// What one action costs with `subscribers` sessions subscribed: the time
/// from dispatch until every patch is delivered, and the bytes built and sent.
struct FanOutResult {
    var secondsPerAction: Double
    var bytesProducedPerAction: Double
    var bytesSentPerAction: Double
}

/// `subscribers` sessions each subscribe to `path(i)`; the writer changes
/// `counter(k)` for `actions` actions; `expectedPerAction` patches follow each.
func fanOut<App: StateSyncApp>(
    _ app: App.Type, subscribers: Int, actions: Int, path: (Int) -> String, counter: (Int) -> String, expectedPerAction: Int
) async throws -> FanOutResult {
    let metrics = BenchMetrics()
    let engine = try await SyncEngine<App>(
        journal: MemoryJournal(), configuration: .init(snapshotEvery: 1 << 40), metrics: ServerMetrics(factory: metrics), logger: quiet)
    let readers = BenchSink()
    let writer = BenchSink()
    _ = engine.join(session: SessionInfo(id: "writer", name: "writer"), clientID: "cw", role: .writer, sink: writer)
    for index in 0..<subscribers {
        let id = "r\(index)"
        _ = engine.join(session: SessionInfo(id: id, name: id), clientID: nil, role: .reader, sink: readers)
        engine.handle(.subscribe(id: "s", path: try JSONPointer(parsing: path(index)), since: nil), from: id)
    }
    await readers.wait(forTotal: subscribers)
    let built = { metrics.total("statesync_patch_bytes_built_total") }
    let builtBefore = built()
    let readersBefore = readers.messages
    let readersBytesBefore = readers.bytes
    let start = now()
    for index in 0..<actions {
        engine.handle(.dispatch(id: "a\(index)", action: increment(counter(index))), from: "writer")
        await writer.wait(forTotal: index + 1)
        await readers.wait(forTotal: readersBefore + (index + 1) * expectedPerAction)
    }
    let elapsed = now() - start
    let builtAfter = built()
    let readersAfter = readers.bytes
    await engine.shutdown()
    return FanOutResult(
        secondsPerAction: elapsed / Double(actions),
        bytesProducedPerAction: Double(builtAfter - builtBefore) / Double(actions),
        bytesSentPerAction: Double(readersAfter - readersBytesBefore) / Double(actions))
}

/// Time per one-field action on a board of `Size`, with a subscriber of the
/// whole state and one of the changed counter (one action at a time), and
/// the size of the whole-state subscriber's patch frame.
func costPerAction<Size: BoardSize>(_ size: Size.Type, actions: Int) async throws -> (seconds: Double, patchFrameBytes: Int, stateBytes: Int) {
    let engine = try await SyncEngine<SizedBoard<Size>>(journal: MemoryJournal(), configuration: .init(snapshotEvery: 1 << 40), logger: quiet)
    let whole = BenchSink()
    let writer = BenchSink()
    _ = engine.join(session: SessionInfo(id: "writer", name: "writer"), clientID: "cw", role: .writer, sink: writer)
    _ = engine.join(session: SessionInfo(id: "whole", name: "whole"), clientID: nil, role: .reader, sink: whole)
    engine.handle(.subscribe(id: "all", path: .root, since: nil), from: "whole")
    await whole.wait(forTotal: 1)
    let stateBytes = whole.bytes
    // Warm-up: the first increment creates the counter.
    engine.handle(.dispatch(id: "warm", action: increment("hits")), from: "writer")
    await writer.wait(forTotal: 1)
    await whole.wait(forTotal: 2)
    let start = now()
    for index in 0..<actions {
        engine.handle(.dispatch(id: "a\(index)", action: increment("hits")), from: "writer")
        await writer.wait(forTotal: index + 2)
        await whole.wait(forTotal: index + 3)
    }
    let elapsed = now() - start
    let frame = whole.lastFrame.count
    await engine.shutdown()
    return (elapsed / Double(actions), frame, stateBytes)
}

