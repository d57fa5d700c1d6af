public import StateSyncCore

/// Middleware that applies ``BoardLimits`` to every client and system
/// action before the reducer; the server's lifecycle commands (presence)
/// pass. Install it first, so that the actions it refuses reach no other
/// middleware's ``Middleware/willReduce(_:state:meta:)``:
///
/// ```swift
/// let server = StateSyncServer<Board>(middleware: [BoardLimitsMiddleware(BoardLimits())])
/// ```
///
/// Journal replay does not run middleware, so limits changed between runs
/// never change what a journal replays to.
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
