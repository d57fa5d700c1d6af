import Foundation
import Logging
import StateSyncCore
@testable import StateSyncServer
import Synchronization
import Testing

@Suite struct ActionLogMiddlewareTests {
    private static let alice = SessionInfo(id: "s-1", name: "alice")

    private static func report(
        _ command: SessionCommand<KeyValueApp.Action>, _ outcome: ActionReport<SessionCommand<KeyValueApp.Action>>.Outcome
    ) -> ActionReport<SessionCommand<KeyValueApp.Action>> {
        ActionReport(action: command, meta: Meta(revision: 42, clientID: "c-1", time: fixtureTime), outcome: outcome, duration: .microseconds(17))
    }

    @Test func oneStructuredLinePerActionWithItsOutcomeAndDuration() throws {
        let lines = CapturedLines()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines, logLevel: .debug) }
        let middleware = ActionLogMiddleware<KeyValueApp>(logger: logger)
        #expect(!middleware.observesStateChanges)
        middleware.didProcess(Self.report(.dispatch(.put(key: "k", value: 1), from: Self.alice), .accepted))
        middleware.didProcess(Self.report(.dispatch(.delete(key: "x"), from: Self.alice), .rejected(.notFound("no entry x"))))
        middleware.didProcess(Self.report(.system(.put(key: "answer", value: 7)), .accepted))
        let captured = lines.all
        #expect(captured.count == 3)
        #expect(captured[0].level == .debug)
        #expect(captured[0].metadata == [
            "type": "put", "origin": "client", "outcome": "accepted", "rev": "42", "client": "c-1", "session": "s-1", "duration_us": "17",
        ])
        #expect(captured[1].metadata["outcome"] == "rejected")
        #expect(captured[1].metadata["code"] == "not_found")
        #expect(captured[1].metadata["reason"] == "no entry x")
        #expect(captured[2].metadata["origin"] == "server")
        #expect(captured[2].metadata["session"] == nil)
    }

    @Test func belowTheLoggersLevelNothingIsBuilt() {
        let lines = CapturedLines()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines, logLevel: .info) }
        ActionLogMiddleware<KeyValueApp>(logger: logger).didProcess(Self.report(.serverStarted, .accepted))
        #expect(lines.all.isEmpty)
    }
}

/// Log lines a ``CapturingLogHandler`` received.
private final class CapturedLines: Sendable {
    struct Line {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let lines = Mutex<[Line]>([])
    func append(_ line: Line) { lines.withLock { $0.append(line) } }
    var all: [Line] { lines.withLock { $0 } }
}

private struct CapturingLogHandler: LogHandler {
    let lines: CapturedLines
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append(.init(
            level: event.level, message: "\(event.message)",
            metadata: (event.metadata ?? [:]).mapValues { "\($0)" }))
    }
}
