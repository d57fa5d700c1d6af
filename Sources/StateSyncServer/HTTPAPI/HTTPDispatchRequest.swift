import NIOHTTP1
import StateSyncCore
import StateSyncProtocol

/// The body of `POST /api/dispatch`: the action itself or an envelope
/// (`{"action":{…},"clientId":"c-9","id":"a1","name":"billing"}`). `clientId`
/// defaults to `http`, `Idempotency-Key` gives the id; without an id it applies each time.
struct HTTPDispatchRequest {
    /// The action object.
    var action: JSONObject
    /// The pair's client id, when the request has an id.
    var clientID: String?
    /// The action id: the header's, the envelope's, or a fresh one.
    var id: String
    /// The name the reducer sees as the sender's (`postMessage`'s `from`).
    var name: String

    /// Reads `body` with the WebSocket's limits.
    ///
    /// - Throws: ``HTTPAPIError``: `400 bad_json` with the byte offset, or `400 bad_request`.
    init(
        body: some Collection<UInt8>, headers: HTTPHeaders, limits: JSONParser.Limits,
        identifierLimits: IdentifierLimits = IdentifierLimits(), freshID: () -> String
    ) throws(HTTPAPIError) {
        let value: JSONValue
        do {
            value = try JSONParser(limits: limits).parse(body)
        } catch {
            throw HTTPAPIError(.badJSON(error))
        }
        guard case .object(let object) = value else { throw HTTPAPIError(.notAnObject(value)) }
        var clientID: String?
        var id: String?
        var name = "http"
        if object["type"] == nil, let envelope = object["action"] {
            guard case .object(let action) = envelope else {
                throw HTTPAPIError(.wrongType("action", expected: "an object", found: envelope, id: nil))
            }
            self.action = action
            clientID = try Self.string("clientId", in: object)
            id = try Self.string("id", in: object)
            name = try Self.string("name", in: object) ?? name
        } else {
            self.action = object
        }
        if let key = headers.first(name: "Idempotency-Key") {
            // An empty key would make every such request one pair: all but the first silently not applied.
            guard !key.isEmpty else {
                throw HTTPAPIError(status: .badRequest, code: "bad_request", message: "header Idempotency-Key must not be empty")
            }
            id = key
        }
        for error in [
            identifierLimits.check(identifier: clientID, field: "clientId", id: nil),
            identifierLimits.check(identifier: id, field: "id", id: nil), identifierLimits.check(name: name),
        ] {
            if let error { throw HTTPAPIError(error) }
        }
        self.clientID = id == nil ? nil : clientID ?? "http"
        self.id = id ?? freshID()
        self.name = name
    }

    private static func string(_ field: String, in object: JSONObject) throws(HTTPAPIError) -> String? {
        guard let value = object[field] else { return nil }
        guard case .string(let text) = value, !text.isEmpty else {
            throw HTTPAPIError(.wrongType(field, expected: "a non-empty string", found: value, id: nil))
        }
        return text
    }
}
