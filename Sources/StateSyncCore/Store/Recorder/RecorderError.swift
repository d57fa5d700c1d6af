/// Why the ``Recorder`` could not produce a diff or a past state.
public struct RecorderError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Base: Sendable, Equatable {
        case notRecorded(revision: UInt64, oldest: UInt64, newest: UInt64)
        case replayRejected(revision: UInt64, rejection: Rejection)
        case encodingFailed(revision: UInt64, message: String)
    }

    private let base: Base

    /// The requested revision is outside the recorded range `oldest...newest`.
    static func notRecorded(_ revision: UInt64, oldest: UInt64, newest: UInt64) -> RecorderError {
        RecorderError(base: .notRecorded(revision: revision, oldest: oldest, newest: newest))
    }

    /// Replaying the action of `revision` was rejected: the reducer is not
    /// deterministic (it depends on something besides state, action and meta).
    static func replayRejected(_ revision: UInt64, _ rejection: Rejection) -> RecorderError {
        RecorderError(base: .replayRejected(revision: revision, rejection: rejection))
    }

    /// The state after `revision` could not be encoded to JSON.
    static func encodingFailed(_ revision: UInt64, _ error: any Error) -> RecorderError {
        RecorderError(base: .encodingFailed(revision: revision, message: "\(error)"))
    }

    /// A readable explanation naming the revision.
    public var description: String {
        switch base {
        case let .notRecorded(revision, oldest, newest):
            "revision \(revision) is not recorded (recorded: \(oldest)...\(newest))"
        case let .replayRejected(revision, rejection):
            "replaying revision \(revision) was rejected (\(rejection)): the reducer is not deterministic"
        case let .encodingFailed(revision, message):
            "the state at revision \(revision) cannot be encoded to JSON: \(message)"
        }
    }
}
