import StateSyncCore

/// Writes protocol messages as the UTF-8 JSON text of one WebSocket text
/// message, straight into a byte buffer.
///
/// Output is deterministic: `type` first, then the fields in the order
/// docs/PROTOCOL.md shows them (`{"type":"patch","id":…,"base":…,"rev":…,"ops":…}`);
/// optional fields that are `nil` are left out; embedded values (`value`,
/// `action`, `ops`) are written by Core's `JSONSerializer` with sorted object
/// keys. No Foundation encoder is involved. For one change sent to many
/// subscriptions, ``PatchFrames`` serializes the ops once.
///
/// ```swift
/// let encoder = MessageEncoder()
/// var frame: [UInt8] = []
/// encoder.encode(.ack(id: "a17", rev: 1045), into: &frame)   // {"type":"ack","id":"a17","rev":1045}
/// encoder.encode(ClientMessage.unsubscribe(id: "s1"))          // {"type":"unsubscribe","id":"s1"}
/// ```
public struct MessageEncoder: Sendable {
    /// An encoder (it has no settings: the wire form is fixed).
    public init() {}

    /// Appends the frame of a server message to `bytes`.
    public func encode(_ message: ServerMessage, into bytes: inout [UInt8]) {
        switch message {
        case let .welcome(session, epoch, rev, role, server):
            bytes.appendLiteral(#"{"type":"welcome","session":"#)
            bytes.appendJSONString(session)
            bytes.appendLiteral(#","epoch":"#)
            bytes.appendJSONString(epoch)
            bytes.appendLiteral(#","rev":"#)
            bytes.appendDecimal(rev)
            bytes.appendLiteral(#","role":"#)
            bytes.appendJSONString(role.rawValue)
            bytes.appendLiteral(#","server":"#)
            bytes.appendJSONString(server)
        case let .snapshot(id, rev, value):
            bytes.appendLiteral(#"{"type":"snapshot","id":"#)
            writeRevisionAndValue(id: id, rev: rev, value: value, into: &bytes)
        case let .patch(id, base, rev, ops):
            PatchFrames.writeHead(id: id, base: base, into: &bytes)
            PatchFrames.writeTail(rev: rev, ops: ops, into: &bytes)
            return
        case .unsubscribed(let id):
            bytes.appendLiteral(#"{"type":"unsubscribed","id":"#)
            bytes.appendJSONString(id)
        case let .value(id, rev, value):
            bytes.appendLiteral(#"{"type":"value","id":"#)
            writeRevisionAndValue(id: id, rev: rev, value: value, into: &bytes)
        case let .ack(id, rev):
            bytes.appendLiteral(#"{"type":"ack","id":"#)
            bytes.appendJSONString(id)
            bytes.appendLiteral(#","rev":"#)
            bytes.appendDecimal(rev)
        case let .reject(id, code, message):
            bytes.appendLiteral(#"{"type":"reject","id":"#)
            bytes.appendJSONString(id)
            writeCodeAndMessage(code: code.rawValue, message: message, into: &bytes)
        case let .error(id, code, message):
            bytes.appendLiteral(#"{"type":"error""#)
            if let id {
                bytes.appendLiteral(#","id":"#)
                bytes.appendJSONString(id)
            }
            writeCodeAndMessage(code: code.rawValue, message: message, into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The frame of a server message.
    public func encode(_ message: ServerMessage) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(message, into: &bytes)
        return bytes
    }

    /// Appends the frame of a client message to `bytes` (for clients and tests).
    public func encode(_ message: ClientMessage, into bytes: inout [UInt8]) {
        switch message {
        case let .hello(clientID, token, name):
            bytes.appendLiteral(#"{"type":"hello""#)
            writeOptional("clientId", clientID, into: &bytes)
            writeOptional("token", token, into: &bytes)
            writeOptional("name", name, into: &bytes)
        case let .subscribe(id, path, since):
            bytes.appendLiteral(#"{"type":"subscribe","id":"#)
            writeIDAndPath(id: id, path: path, into: &bytes)
            if let since {
                bytes.appendLiteral(#","since":"#)
                bytes.appendDecimal(since)
            }
        case .unsubscribe(let id):
            bytes.appendLiteral(#"{"type":"unsubscribe","id":"#)
            bytes.appendJSONString(id)
        case let .get(id, path):
            bytes.appendLiteral(#"{"type":"get","id":"#)
            writeIDAndPath(id: id, path: path, into: &bytes)
        case let .dispatch(id, action):
            bytes.appendLiteral(#"{"type":"dispatch","id":"#)
            bytes.appendJSONString(id)
            bytes.appendLiteral(#","action":"#)
            bytes.appendJSON(.object(action))
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The frame of a client message.
    public func encode(_ message: ClientMessage) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(message, into: &bytes)
        return bytes
    }

    private func writeRevisionAndValue(id: String, rev: UInt64, value: JSONValue, into bytes: inout [UInt8]) {
        bytes.appendJSONString(id)
        bytes.appendLiteral(#","rev":"#)
        bytes.appendDecimal(rev)
        bytes.appendLiteral(#","value":"#)
        bytes.appendJSON(value)
    }

    private func writeCodeAndMessage(code: String, message: String, into bytes: inout [UInt8]) {
        bytes.appendLiteral(#","code":"#)
        bytes.appendJSONString(code)
        bytes.appendLiteral(#","message":"#)
        bytes.appendJSONString(message)
    }

    private func writeIDAndPath(id: String, path: JSONPointer, into bytes: inout [UInt8]) {
        bytes.appendJSONString(id)
        bytes.appendLiteral(#","path":"#)
        bytes.appendJSONString(path.description)
    }

    private func writeOptional(_ name: StaticString, _ value: String?, into bytes: inout [UInt8]) {
        guard let value else { return }
        bytes.appendLiteral(",\"")
        bytes.appendLiteral(name)
        bytes.appendLiteral("\":")
        bytes.appendJSONString(value)
    }
}
