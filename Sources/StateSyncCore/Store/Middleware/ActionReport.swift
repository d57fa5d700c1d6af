/// What became of one action: what ``Middleware/didProcess(_:)`` receives.
public struct ActionReport<Action: Sendable>: Sendable {
    /// Accepted, or rejected and why.
    public enum Outcome: Sendable, Hashable {
        /// The reducer changed the state; ``ActionReport/meta`` has the new revision.
        case accepted
        /// A middleware or the reducer refused the action: the state is unchanged.
        case rejected(Rejection)
    }

    /// The action.
    public var action: Action
    /// Its metadata. For a rejected action, the revision is the one it would
    /// have had (the next accepted action gets it).
    public var meta: Meta
    /// Accepted or rejected.
    public var outcome: Outcome
    /// The time spent in every middleware's ``Middleware/willReduce(_:state:meta:)``
    /// and in the reducer (read from `ContinuousClock`; in a ``Store`` this
    /// includes taking its lock for the reducer).
    public var duration: Duration

    /// A report.
    public init(action: Action, meta: Meta, outcome: Outcome, duration: Duration) {
        self.action = action
        self.meta = meta
        self.outcome = outcome
        self.duration = duration
    }
}
