public import StateSyncCore

/// Applies ``BoardLimits`` to every client and system action before the reducer; lifecycle
/// commands pass. Install it first, so refused actions reach no other middleware. Journal
/// replay runs no middleware, so changed limits never change what a journal replays to.
public struct BoardLimitsMiddleware: Middleware {
    /// The board's state.
    public typealias State = BoardState
    /// The commands the server runs.
    public typealias Action = SessionCommand<BoardAction>

    /// The limits applied.
    public let limits: BoardLimits

    /// Middleware applying `limits`.
    public init(_ limits: BoardLimits) {
        self.limits = limits
    }

    /// `false`: a check needs no old state.
    public var observesStateChanges: Bool { false }

    /// Rejects a client or system action beyond ``limits``.
    public func willReduce(_ command: SessionCommand<BoardAction>, state: BoardState, meta: Meta) throws(Rejection) {
        guard let action = command.action else { return }
        try limits.check(action, in: state)
    }
}
