import BoardApp
import Foundation
import MetricsTestKit
import NIOPosix
import StateSyncCore
import StateSyncJournal
import StateSyncProtocol
@testable import StateSyncServer
import Testing

/// A configuration with a fixed clock (deterministic `Meta.time`) and the given settings.
func engineConfiguration(snapshotEvery: UInt64 = 1_000, historyWindow: Int = 1_024) -> SyncEngineConfiguration {
    SyncEngineConfiguration(snapshotEvery: snapshotEvery, historyWindow: historyWindow, clock: { fixtureTime })
}

/// A board engine on `journal` (a fresh memory journal by default),
/// recording its metrics in `metrics` (a throwaway one by default).
///
/// Its fan-out runs on one event loop (one shard), so that a test may read
/// one session's messages once another's have arrived: sessions of
/// different shards are sent to in parallel, with no order between them
/// (``FanOutShardsTests`` covers several shards).
func boardEngine(
    journal: any Journal = MemoryJournal(), configuration: SyncEngineConfiguration = engineConfiguration(),
    middleware: [any Middleware<BoardState, SessionCommand<BoardAction>>] = [], metrics: TestMetrics = TestMetrics()
) async throws -> SyncEngine<Board> {
    try await SyncEngine<Board>(
        journal: journal, configuration: configuration, middleware: middleware,
        metrics: ServerMetrics(factory: metrics), logger: quietLogger, eventLoops: MultiThreadedEventLoopGroup.singleton.next())
}

/// An engine of ``KeyValueApp`` (whose `put` of `ask` has an effect) on
/// `journal`, on one event loop as ``boardEngine(journal:configuration:middleware:metrics:)``.
func keyValueEngine(
    journal: any Journal, middleware: [any Middleware<JSONValue, SessionCommand<KeyValueApp.Action>>] = [],
    metrics: TestMetrics = TestMetrics()
) async throws -> SyncEngine<KeyValueApp> {
    try await SyncEngine<KeyValueApp>(
        journal: journal, configuration: engineConfiguration(), middleware: middleware,
        metrics: ServerMetrics(factory: metrics), logger: quietLogger, eventLoops: MultiThreadedEventLoopGroup.singleton.next())
}

extension SyncEngine {
    /// Joins a session `id` (named after it) with a recording sink.
    func joinRecording(_ id: String, clientID: String? = nil, role: Role = .writer) -> RecordingSink {
        let sink = RecordingSink()
        _ = join(session: SessionInfo(id: id, name: id), clientID: clientID, role: role, sink: sink)
        return sink
    }

    /// The value at `path`, read with `get` through `sink` of session `session`.
    func value(at path: String, session: String, sink: RecordingSink, id: String = UUID().uuidString) async throws -> (rev: UInt64, value: JSONValue) {
        handle(.get(id: id, path: try JSONPointer(parsing: path)), from: session)
        let messages = await sink.waitForAnswer(id)
        guard case let .value(_, rev, value)? = messages.last else {
            Issue.record("expected a value for \(id), got \(String(describing: messages.last))")
            return (0, .null)
        }
        return (rev, value)
    }
}

/// `{"type":"addTodo","title":…}`.
func addTodo(_ title: String) -> JSONObject { ["type": "addTodo", "title": .string(title)] }

/// `{"type":"increment","counter":…,"by":…}`.
func increment(_ counter: String, by: Int64 = 1) -> JSONObject {
    ["type": "increment", "counter": .string(counter), "by": .integer(by)]
}

/// A pointer from a string known to be valid.
func pointer(_ text: String) -> JSONPointer {
    try! JSONPointer(parsing: text)  // test literals only
}
