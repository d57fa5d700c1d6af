public import StateSyncCore

/// Reads protocol messages from the UTF-8 bytes of one WebSocket text message.
///
/// Every failure is a ``ProtocolError`` with the code of the protocol's error
/// table: `bad_json` (not a JSON object; with the parser's
/// ``ProtocolError/byteOffset``), `unknown_type`, `bad_request` (a required
/// field missing or mistyped, naming it) or `invalid_path` (a malformed JSON
/// Pointer). The error carries the message's `id` whenever it is a string.
/// Unknown fields are ignored, a field set to `null` counts as absent, and
/// revisions are integer literals in `0...Int64.max`.
///
/// ```swift
/// let decoder = MessageDecoder()
/// let bytes = Array(#"{"type":"subscribe","id":"s1","path":"/todos","since":1045}"#.utf8)
/// let message = try decoder.decodeClientMessage(bytes)
/// // .subscribe(id: "s1", path: /todos, since: 1045)
/// ```
public struct MessageDecoder: Sendable {
    /// The JSON parser's limits. Default: `JSONParser.Limits()` (nesting up
    /// to 512 levels, 64 MiB), which fits a full-state snapshot read by a
    /// client; a server should set `maxInputBytes` to its message size limit.
    public var limits: JSONParser.Limits
    /// How long the paths of `subscribe` and `get` may be (a longer one is
    /// `invalid_path`). Default: `JSONPointer.Limits()` (32 tokens, 1 KiB).
    public var pathLimits: JSONPointer.Limits

    /// A decoder with `limits` and `pathLimits`.
    public init(limits: JSONParser.Limits = JSONParser.Limits(), pathLimits: JSONPointer.Limits = JSONPointer.Limits()) {
        self.limits = limits
        self.pathLimits = pathLimits
    }

    /// Decodes a message sent by a client (what the server reads).
    public func decodeClientMessage(_ bytes: some Collection<UInt8>) throws(ProtocolError) -> ClientMessage {
        try clientMessage(try parseObject(bytes))
    }

    /// Decodes a client message with its store (``StoreName/main`` without a
    /// `store` field) and the `epoch` a `subscribe … since` resumes in.
    /// - Throws: ``ProtocolError`` as ``decodeClientMessage(_:)``, and
    ///   `invalid_store` for a name against ``StoreName/rule``.
    public func decodeStoreScopedMessage(
        _ bytes: some Collection<UInt8>
    ) throws(ProtocolError) -> (message: ClientMessage, store: StoreName, epoch: String?) {
        let fields = try parseObject(bytes)
        let message = try clientMessage(fields)
        let epoch = try fields.optionalString("epoch")
        guard let name = try fields.optionalString("store") else { return (message, .main, epoch) }
        guard StoreName.isValid(name) else { throw .invalidStore(name, id: message.id) }
        return (message, try StoreName(name), epoch)
    }

    /// The valid store a client message names, read from a message that
    /// did not decode, so that the error about it names its store too;
    /// `nil` when it names none or no valid one.
    public func namedStore(_ bytes: some Collection<UInt8>) -> StoreName? {
        guard let fields = try? parseObject(bytes), let name = try? fields.optionalString("store") else { return nil }
        return try? StoreName(name)
    }

    /// The `type` a message names, read from a message that did not
    /// decode, so that an error about it can say what it was meant to be;
    /// `nil` when it is not an object with a string `type`.
    public func namedType(_ bytes: some Collection<UInt8>) -> String? {
        guard let fields = try? parseObject(bytes) else { return nil }
        return try? fields.type()
    }

    private func clientMessage(_ fields: MessageFields) throws(ProtocolError) -> ClientMessage {
        switch try fields.type() {
        case "hello":
            return .hello(
                clientID: try fields.optionalString("clientId"),
                token: try fields.optionalString("token"),
                name: try fields.optionalString("name"),
                schemaVersion: try fields.optionalSchemaVersion("schemaVersion")
            )
        case "subscribe":
            let id = try fields.requiredID()
            return .subscribe(id: id, path: try fields.pointer("path"), since: try fields.optionalRevision("since"))
        case "unsubscribe":
            return .unsubscribe(id: try fields.requiredID())
        case "get":
            let id = try fields.requiredID()
            return .get(id: id, path: try fields.pointer("path"))
        case "dispatch":
            let id = try fields.requiredID()
            return .dispatch(id: id, action: try fields.object("action"), schemaVersion: try fields.optionalSchemaVersion("schemaVersion"))
        case "auth":
            let id = try fields.requiredID()
            return .auth(id: id, token: try fields.string("token"))
        case let other:
            throw .unknownType(other, id: fields.id)
        }
    }

    /// Decodes a message sent by the server (what a client reads).
    public func decodeServerMessage(_ bytes: some Collection<UInt8>) throws(ProtocolError) -> ServerMessage {
        try serverMessage(try parseObject(bytes))
    }

    /// The server message `fields` hold.
    func serverMessage(_ fields: MessageFields) throws(ProtocolError) -> ServerMessage {
        switch try fields.type() {
        case "welcome":
            return .welcome(
                session: try fields.string("session"),
                epoch: try fields.string("epoch"),
                rev: try fields.revision("rev"),
                role: try role(fields),
                server: try fields.string("server")
            )
        case "snapshot":
            let id = try fields.requiredID()
            return .snapshot(id: id, rev: try fields.revision("rev"), value: try fields.value("value"))
        case "patch":
            let id = try fields.requiredID()
            return .patch(id: id, base: try fields.revision("base"), rev: try fields.revision("rev"), ops: try patch(fields))
        case "unsubscribed":
            return .unsubscribed(id: try fields.requiredID())
        case "value":
            let id = try fields.requiredID()
            return .value(id: id, rev: try fields.revision("rev"), value: try fields.value("value"))
        case "ack":
            let id = try fields.requiredID()
            return .ack(id: id, rev: try fields.revision("rev"))
        case "reject":
            let id = try fields.requiredID()
            return .reject(id: id, code: RejectCode(rawValue: try fields.string("code")), message: try fields.string("message"))
        case "error":
            return .error(
                id: try fields.optionalString("id"),
                code: ErrorCode(rawValue: try fields.string("code")),
                message: try fields.string("message")
            )
        case "authorized":
            let id = try fields.requiredID()
            return .authorized(
                id: id, role: try role(fields),
                expires: try fields.optionalRevision("expires"))
        case let other:
            throw .unknownType(other, id: fields.id)
        }
    }

    /// Parses `bytes` as one JSON object.
    func parseObject(_ bytes: some Collection<UInt8>) throws(ProtocolError) -> MessageFields {
        let value: JSONValue
        do {
            value = try JSONParser(limits: limits).parse(bytes)
        } catch {
            throw .badJSON(error)
        }
        guard case .object(let object) = value else { throw .notAnObject(value) }
        return MessageFields(object, pathLimits: pathLimits)
    }

    /// The `role` field, `nil` without one.
    private func role(_ fields: MessageFields) throws(ProtocolError) -> Role? {
        guard let text = try fields.optionalString("role") else { return nil }
        guard let role = Role(rawValue: text) else {
            throw .invalidValue("role", reason: "\"\(ProtocolError.clip(text))\" is not a role (reader, writer or admin)", id: fields.id)
        }
        return role
    }

    private func patch(_ fields: MessageFields) throws(ProtocolError) -> JSONPatch {
        let ops = try fields.array("ops", expected: "an array of JSON Patch operations")
        do throws(JSONPatchError) {
            return try JSONPatch(jsonValue: ops)
        } catch {
            throw .invalidValue("ops", reason: error.description, id: fields.id)
        }
    }
}
