extension JSONValue: Codable {
    /// Decodes any JSON value, so a `JSONValue` can sit inside a `Codable`
    /// type: in O(1) with ``JSONValueDecoder``, with other decoders by trying
    /// null, Boolean, integer, double, string, array and object in turn.
    public init(from decoder: any Decoder) throws {
        if let direct = decoder as? JSONValueDecoderImpl {
            self = direct.value
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            // The last kind left: let its error, if any, reach the caller.
            self = .object(JSONObject(try container.decode([String: JSONValue].self).map { ($0.key, $0.value) }))
        }
    }

    /// Encodes the value as what it is. With ``JSONValueEncoder`` it is
    /// stored as it is, in O(1).
    public func encode(to encoder: any Encoder) throws {
        if let direct = encoder as? JSONValueEncoderImpl {
            direct.store(self)
            return
        }
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .double(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let object):
            var container = encoder.container(keyedBy: JSONCodingKey.self)
            for (key, value) in object {
                try container.encode(value, forKey: JSONCodingKey(key))
            }
        }
    }
}
