import StateSyncCore

/// The members of one message object, read with protocol errors that name the
/// field, the expected type and the message's `id`. A member set to `null`
/// counts as missing (`"since": null` is no `since`).
struct MessageFields {
    let object: JSONObject
    /// The message's `id`, once read, attached to every later error.
    var id: String?
    /// How long a path may be.
    let pathLimits: JSONPointer.Limits

    init(_ object: JSONObject, pathLimits: JSONPointer.Limits) {
        self.object = object
        self.pathLimits = pathLimits
        // Read before anything can fail, so every error can carry it.
        id = object["id"]?.stringValue
    }

    /// A member that is present and not `null`.
    private func member(_ name: String) -> JSONValue? {
        guard let value = object[name], !value.isNull else { return nil }
        return value
    }

    func string(_ name: String) throws(ProtocolError) -> String {
        guard let value = member(name) else { throw .missingField(name, expected: "a string", id: id) }
        return try string(name, value)
    }

    func optionalString(_ name: String) throws(ProtocolError) -> String? {
        guard let value = member(name) else { return nil }
        return try string(name, value)
    }

    private func string(_ name: String, _ value: JSONValue) throws(ProtocolError) -> String {
        guard case .string(let text) = value else { throw .wrongType(name, expected: "a string", found: value, id: id) }
        return text
    }

    /// The message's own `id` (required).
    func requiredID() throws(ProtocolError) -> String {
        try string("id")
    }

    /// A revision: an integer literal in `0...Int64.max` (fractions,
    /// exponents, negative and larger numbers are refused).
    func revision(_ name: String) throws(ProtocolError) -> UInt64 {
        guard let value = member(name) else { throw .missingField(name, expected: Self.revisionKind, id: id) }
        return try revision(name, value)
    }

    func optionalRevision(_ name: String) throws(ProtocolError) -> UInt64? {
        guard let value = member(name) else { return nil }
        return try revision(name, value)
    }

    private func revision(_ name: String, _ value: JSONValue) throws(ProtocolError) -> UInt64 {
        guard case .integer(let number) = value, number >= 0 else {
            throw .wrongType(name, expected: Self.revisionKind, found: value, id: id)
        }
        return UInt64(number)
    }

    private static let revisionKind = "a non-negative 64-bit integer"

    /// An app schema version, when present (``ProtocolVersion/schemaVersions``).
    func optionalSchemaVersion(_ name: String) throws(ProtocolError) -> Int? {
        guard let value = member(name) else { return nil }
        guard case .integer(let number) = value, let version = Int(exactly: number), ProtocolVersion.schemaVersions.contains(version) else {
            throw .wrongType(name, expected: ProtocolVersion.schemaVersionKind, found: value, id: id)
        }
        return version
    }

    /// A JSON Pointer given as a string; a malformed or too long one is `invalid_path`.
    func pointer(_ name: String) throws(ProtocolError) -> JSONPointer {
        let text = try string(name)
        do {
            return try JSONPointer(parsing: text, limits: pathLimits)
        } catch {
            throw .invalidPath(error, id: id)
        }
    }

    func object(_ name: String) throws(ProtocolError) -> JSONObject {
        guard let value = member(name) else { throw .missingField(name, expected: "an object", id: id) }
        guard case .object(let object) = value else { throw .wrongType(name, expected: "an object", found: value, id: id) }
        return object
    }

    /// An array, described as `expected` in errors.
    func array(_ name: String, expected: String) throws(ProtocolError) -> JSONValue {
        guard let value = member(name) else { throw .missingField(name, expected: expected, id: id) }
        guard case .array = value else { throw .wrongType(name, expected: expected, found: value, id: id) }
        return value
    }

    /// Any JSON value, `null` included, but the member must be present.
    func value(_ name: String) throws(ProtocolError) -> JSONValue {
        guard let value = object[name] else { throw .missingField(name, expected: "any JSON value, null included", id: id) }
        return value
    }

    /// The message's `type`: a missing or non-string one is `unknown_type`.
    func type() throws(ProtocolError) -> String {
        guard let value = member("type") else { throw .missingType(id: id) }
        guard case .string(let type) = value else { throw .typeNotString(value, id: id) }
        return type
    }
}
