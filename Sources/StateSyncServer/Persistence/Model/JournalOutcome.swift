/// What became of a `(clientId, actionId)` pair: the original `ack` or `reject`
/// that a repeated dispatch of the same pair must get again (exactly-once).
public enum JournalOutcome: Sendable, Hashable {
    /// The action was accepted and produced `revision`.
    case accepted(revision: UInt64)
    /// The action was rejected with a protocol or application error code
    /// (`invalid_action`, `not_found`, …) and a human-readable message.
    case rejected(code: String, message: String)
}

/// A `(clientId, actionId)` pair, the key of remembered outcomes.
struct OutcomeKey: Hashable, Sendable {
    var clientID: String
    var actionID: String
}
