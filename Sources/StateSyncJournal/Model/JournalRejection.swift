/// A rejected dispatch to remember for exactly-once delivery. Rejections get
/// no revision and change no state, but a repeated `(clientId, actionId)` must
/// still get the original `reject`, so they are written with the batch.
public struct JournalRejection: Sendable, Hashable {
    /// The client that dispatched the action.
    public var clientID: String
    /// The action id the client chose in `dispatch`.
    public var actionID: String
    /// The `reject` code sent to the client (`invalid_action`, `not_found`, …).
    public var code: String
    /// The `reject` message sent to the client.
    public var message: String

    /// A rejection of `actionID` from `clientID` with `code` and `message`.
    public init(clientID: String, actionID: String, code: String, message: String) {
        self.clientID = clientID
        self.actionID = actionID
        self.code = code
        self.message = message
    }

    package var key: OutcomeKey { OutcomeKey(clientID: clientID, actionID: actionID) }
}
