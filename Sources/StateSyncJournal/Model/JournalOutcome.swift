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
package struct OutcomeKey: Hashable, Sendable {
    /// The client's id.
    package var clientID: String
    /// The action's id, unique per client.
    package var actionID: String

    /// The pair `(clientID, actionID)`.
    package init(clientID: String, actionID: String) {
        self.clientID = clientID
        self.actionID = actionID
    }
}
