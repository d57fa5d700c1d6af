public import StateSyncProtocol

/// The server refused an action: the state did not change.
///
/// ```swift
/// do {
///     let rev = try await client.dispatch(["type": "toggleTodo", "id": "nope"])
/// } catch let rejection as DispatchRejection {
///     print(rejection.code, rejection.message)   // not_found no todo with id nope
/// }
/// ```
public struct DispatchRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why: `invalid_action`, `forbidden`, `rate_limited` or an app-defined code such as `not_found`.
    public let code: RejectCode
    /// The server's explanation.
    public let message: String
    /// The action's id on the wire.
    public let actionID: String

    /// A rejection of action `actionID` with `code` and `message`.
    public init(code: RejectCode, message: String, actionID: String) {
        self.code = code
        self.message = message
        self.actionID = actionID
    }

    /// `rejected (code): message`.
    public var description: String { "rejected (\(code)): \(message)" }
}
