import StateSyncCore

/// Writes protocol messages as the UTF-8 JSON text of one WebSocket text
/// message, straight into a byte buffer.
///
/// Output is deterministic: `type` first, then the fields in the order
/// docs/PROTOCOL.md shows them, `nil` optional fields left out, and embedded
/// values (`value`, `action`, `ops`) written by Core's `JSONSerializer` with
/// sorted keys. ``PatchFrames`` serializes one change's ops once for many
/// subscriptions.
///
/// ```swift
/// let encoder = MessageEncoder()
/// var frame: [UInt8] = []
/// encoder.encode(.ack(id: "a17", rev: 1045), into: &frame)   // {"type":"ack","id":"a17","rev":1045}
/// encoder.encode(ClientMessage.unsubscribe(id: "s1"))          // {"type":"unsubscribe","id":"s1"}
/// ```
public struct MessageEncoder: Sendable {
    /// The store whose messages this encoder writes: a store other than `main`
    /// is named in each store-scoped message, and its `snapshot` and `value`
    /// carry its epoch.
    public let store: StoreName
    private let scope: [UInt8]
    private let epochField: [UInt8]

    /// An encoder for the messages of `store`, whose epoch is `epoch`.
    public init(store: StoreName = .main, epoch: String = "") {
        self.store = store
        var scope: [UInt8] = []
        var epochField: [UInt8] = []
        if !store.isMain {
            scope.appendField(#","store":"#, store.rawValue)
            epochField.appendField(#","epoch":"#, epoch)
        }
        self.scope = scope
        self.epochField = epochField
    }

    /// Appends the frame of a server message to `bytes`.
    public func encode(_ message: ServerMessage, into bytes: inout [UInt8]) {
        switch message {
        case let .welcome(session, epoch, rev, role, server):
            bytes.appendField(#"{"type":"welcome","session":"#, session)
            bytes.appendField(#","epoch":"#, epoch)
            bytes.appendField(#","rev":"#, rev)
            if let role { bytes.appendField(#","role":"#, role.rawValue) }
            bytes.appendField(#","server":"#, server)
        case let .snapshot(id, rev, value):
            head(#"{"type":"snapshot""#, into: &bytes)
            bytes.appendField(#","id":"#, id)
            bytes.append(contentsOf: epochField)
            bytes.appendField(#","rev":"#, rev)
            bytes.appendField(#","value":"#, value)
        case let .patch(id, base, rev, ops):
            PatchFrames.writeHead(scope: scope, id: id, base: base, into: &bytes)
            PatchFrames.writeTail(rev: rev, ops: ops, into: &bytes)
            return
        case .unsubscribed(let id):
            head(#"{"type":"unsubscribed""#, into: &bytes)
            bytes.appendField(#","id":"#, id)
        case let .value(id, rev, value):
            head(#"{"type":"value""#, into: &bytes)
            bytes.appendField(#","id":"#, id)
            bytes.append(contentsOf: epochField)
            bytes.appendField(#","rev":"#, rev)
            bytes.appendField(#","value":"#, value)
        case let .ack(id, rev):
            head(#"{"type":"ack""#, into: &bytes)
            bytes.appendField(#","id":"#, id)
            bytes.appendField(#","rev":"#, rev)
        case let .reject(id, code, message):
            head(#"{"type":"reject""#, into: &bytes)
            bytes.appendField(#","id":"#, id)
            bytes.appendField(#","code":"#, code.rawValue)
            bytes.appendField(#","message":"#, message)
        case let .error(id, code, message):
            head(#"{"type":"error""#, into: &bytes)
            if let id { bytes.appendField(#","id":"#, id) }
            bytes.appendField(#","code":"#, code.rawValue)
            bytes.appendField(#","message":"#, message)
        case let .authorized(id, role, expires):
            bytes.appendField(#"{"type":"authorized","id":"#, id)
            if let role { bytes.appendField(#","role":"#, role.rawValue) }
            if let expires { bytes.appendField(#","expires":"#, expires) }
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// `type`, then the store for a store other than `main`.
    private func head(_ literal: StaticString, into bytes: inout [UInt8]) {
        bytes.appendLiteral(literal)
        bytes.append(contentsOf: scope)
    }

    /// The frame of a server message.
    public func encode(_ message: ServerMessage) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(message, into: &bytes)
        return bytes
    }

    /// Appends the frame of a client message to `bytes` (for clients and
    /// tests), naming this encoder's ``store`` unless it is `main`.
    public func encode(_ message: ClientMessage, into bytes: inout [UInt8]) {
        switch message {
        case let .hello(clientID, token, name, schemaVersion):
            bytes.appendLiteral(#"{"type":"hello""#)
            if let clientID { bytes.appendField(#","clientId":"#, clientID) }
            if let token { bytes.appendField(#","token":"#, token) }
            if let name { bytes.appendField(#","name":"#, name) }
            if let schemaVersion { bytes.appendField(#","schemaVersion":"#, UInt64(schemaVersion)) }
        case let .subscribe(id, path, since):
            head(#"{"type":"subscribe""#, into: &bytes)
            bytes.appendField(#","id":"#, id)
            bytes.appendField(#","path":"#, path.description)
            if let since { bytes.appendField(#","since":"#, since) }
        case .unsubscribe(let id):
            head(#"{"type":"unsubscribe""#, into: &bytes)
            bytes.appendField(#","id":"#, id)
        case let .get(id, path):
            head(#"{"type":"get""#, into: &bytes)
            bytes.appendField(#","id":"#, id)
            bytes.appendField(#","path":"#, path.description)
        case let .dispatch(id, action, schemaVersion):
            head(#"{"type":"dispatch""#, into: &bytes)
            bytes.appendField(#","id":"#, id)
            bytes.appendField(#","action":"#, JSONValue.object(action))
            if let schemaVersion { bytes.appendField(#","schemaVersion":"#, UInt64(schemaVersion)) }
        case let .auth(id, token):
            bytes.appendField(#"{"type":"auth","id":"#, id)
            bytes.appendField(#","token":"#, token)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The frame of a client message.
    public func encode(_ message: ClientMessage) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(message, into: &bytes)
        return bytes
    }
}
