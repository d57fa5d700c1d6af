import StateSyncCore
import StateSyncProtocol

/// How long the identifiers and names a client gives may be: ids and
/// `clientId` (kept per session and journaled) and the `hello` `name` (sent
/// to every presence subscriber).
public struct IdentifierLimits: Sendable, Hashable {
    /// The most UTF-8 bytes of an id or `clientId`. Default 128: room for a
    /// UUID with a prefix, four times over.
    public var maxIdentifierBytes: Int
    /// The most Unicode scalars of a session's `name`. Default 64: a name
    /// shown in a presence list, not a payload.
    public var maxNameLength: Int

    /// Limits with the documented defaults.
    public init(maxIdentifierBytes: Int = 128, maxNameLength: Int = 64) {
        self.maxIdentifierBytes = Swift.max(1, maxIdentifierBytes)
        self.maxNameLength = Swift.max(1, maxNameLength)
    }

    /// The `bad_request` for an id (or `clientId`) named `field` that is too
    /// long; `nil` when it fits.
    func check(identifier value: String?, field: String, id: String?) -> ProtocolError? {
        guard let value, value.utf8.count > maxIdentifierBytes else { return nil }
        return .invalidValue(field, reason: "\(value.utf8.count) bytes; at most \(maxIdentifierBytes) are accepted", id: id)
    }

    /// The `bad_request` for a `name` that is too long; `nil` when it fits.
    func check(name value: String?) -> ProtocolError? {
        guard let value, value.unicodeScalars.count > maxNameLength else { return nil }
        return .invalidValue("name", reason: "\(value.unicodeScalars.count) characters; at most \(maxNameLength) are accepted", id: nil)
    }

    /// The first limit `message` breaks, if any.
    func check(_ message: ClientMessage) -> ProtocolError? {
        switch message {
        case let .hello(clientID, _, name, _):
            return check(identifier: clientID, field: "clientId", id: nil) ?? check(name: name)
        case .subscribe(let id, _, _), .unsubscribe(let id), .get(let id, _), .dispatch(let id, _, _), .auth(let id, _):
            return check(identifier: id, field: "id", id: String(id.prefix(64)))
        }
    }
}
