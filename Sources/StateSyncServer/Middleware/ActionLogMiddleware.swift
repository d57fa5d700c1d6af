public import Logging
public import StateSyncCore

/// Middleware that writes one structured swift-log line per command: type,
/// origin, outcome, revision, client and duration. It never keeps the old
/// state (``observesStateChanges`` is `false`).
///
/// ```swift
/// let server = StateSyncServer<Board>(middleware: [ActionLogMiddleware<Board>(logger: logger)])
/// // debug: action type=addTodo origin=client outcome=accepted rev=42 client=c-5f2a duration_us=3
/// ```
public struct ActionLogMiddleware<App: StateSyncApp>: Middleware {
    /// The app's state.
    public typealias State = App.State
    /// The commands the engine runs.
    public typealias Action = SessionCommand<App.Action>

    private let logger: Logger
    private let level: Logger.Level

    /// A middleware logging to `logger` at `level`. Default `.debug`: a
    /// server handles thousands of actions a second, which do not belong in
    /// its `info` log (`statesync serve --log-level debug` shows them).
    public init(logger: Logger, level: Logger.Level = .debug) {
        self.logger = logger
        self.level = level
    }

    /// `false`: the outcome is enough.
    public var observesStateChanges: Bool { false }

    /// Logs the command's outcome.
    public func didProcess(_ report: ActionReport<Action>) {
        guard logger.logLevel <= level else { return }
        var metadata: Logger.Metadata = [
            "type": "\(report.action.label)",
            "origin": "\(report.action.origin)",
            "rev": "\(report.meta.revision)",
            "duration_us": "\(report.duration.microseconds)",
        ]
        if let client = report.meta.clientID { metadata["client"] = "\(client)" }
        if let session = report.action.session { metadata["session"] = "\(session.id)" }
        switch report.outcome {
        case .accepted:
            metadata["outcome"] = "accepted"
        case .rejected(let rejection):
            metadata["outcome"] = "rejected"
            metadata["code"] = "\(rejection.code)"
            metadata["reason"] = "\(rejection.message)"
        }
        logger.log(level: level, "action", metadata: metadata)
    }
}

extension Duration {
    /// Whole microseconds.
    var microseconds: Int64 {
        let parts = components
        return parts.seconds * 1_000_000 + parts.attoseconds / 1_000_000_000_000
    }
}
