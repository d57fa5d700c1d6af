import Foundation

/// A value being encoded. Containers are reference types so that nested
/// containers and super encoders handed out earlier still write into the
/// tree; ``resolved()`` turns the finished tree into a ``JSONValue``.
enum EncodedNode {
    case value(JSONValue)
    case array(EncodedArray)
    case object(EncodedObject)
    /// A super encoder's result, known only once the caller has used it.
    case deferred(JSONValueEncoderImpl)

    func resolved() -> JSONValue {
        switch self {
        case .value(let value):
            value
        case .array(let array):
            .array(array.items.map { $0.resolved() })
        case .object(let object):
            .object(object.resolved())
        case .deferred(let encoder):
            // An encoder that was never used stands for an empty object, as
            // with Foundation's JSONEncoder.
            encoder.result?.resolved() ?? .object(JSONObject())
        }
    }
}

/// The elements of an unkeyed container being encoded.
final class EncodedArray {
    var items: [EncodedNode] = []
}

/// The members of a keyed container being encoded, in encoding order. Nested
/// containers and super encoders, filled in later, wait in `pending`, their
/// slot in `values` holding `null` until then.
final class EncodedObject {
    private var keys: [String] = []
    private var values: [JSONValue] = []
    private var pending: [(index: Int, node: EncodedNode)] = []

    func append(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
    }

    func append(_ key: String, _ node: EncodedNode) {
        if case .value(let value) = node {
            append(key, value)
            return
        }
        pending.append((keys.count, node))
        append(key, .null)
    }

    /// The finished object. Called once, when encoding is over: the arrays
    /// are handed over (not copied) to the object.
    func resolved() -> JSONObject {
        for (index, node) in pending { values[index] = node.resolved() }
        var finishedKeys: [String] = []
        var finishedValues: [JSONValue] = []
        swap(&finishedKeys, &keys)
        swap(&finishedValues, &values)
        return JSONObject(unsortedKeys: finishedKeys, values: finishedValues)
    }
}

/// The `Encoder` behind ``JSONValueEncoder``: one per encoded value that is
/// not a primitive.
final class JSONValueEncoderImpl: Encoder {
    let options: JSONValueEncoder
    let codingPath: [any CodingKey]
    private(set) var result: EncodedNode?

    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    init(options: JSONValueEncoder, codingPath: [any CodingKey]) {
        self.options = options
        self.codingPath = codingPath
    }

    /// Stores a finished value (single-value containers, ``JSONValue``).
    func store(_ value: JSONValue) {
        result = .value(value)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: EncodedObject
        if case .object(let existing)? = result {
            object = existing
        } else {
            object = EncodedObject()
            result = .object(object)
        }
        return KeyedEncodingContainer(JSONKeyedEncodingContainer(encoder: self, object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: EncodedArray
        if case .array(let existing)? = result {
            array = existing
        } else {
            array = EncodedArray()
            result = .array(array)
        }
        return JSONUnkeyedEncodingContainer(encoder: self, array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleValueEncodingContainer(encoder: self)
    }

    /// Encodes `value` found at `key` below this encoder's path (or at this
    /// path when `key` is `nil`). Returns `nil` when it encoded nothing.
    func wrap<T: Encodable>(_ value: T, at key: (any CodingKey)?) throws -> EncodedNode? {
        // Common leaves first, without a nested encoder. Compared by type, not
        // cast: a failed `as?` costs a dynamic cast for every struct encoded.
        if T.self == String.self { return .value(.string(value as! String)) }
        if T.self == Int.self { return .value(.integer(Int64(value as! Int))) }
        if T.self == Bool.self { return .value(.bool(value as! Bool)) }
        if T.self == JSONValue.self { return .value(value as! JSONValue) }
        if T.self == Date.self, let json = options.dateCodingStrategy.encode(value as! Date) { return .value(json) }
        if T.self == Data.self { return .value(.string((value as! Data).base64EncodedString())) }
        if T.self == URL.self { return .value(.string((value as! URL).absoluteString)) }
        let path = key.map { codingPath + [$0] } ?? codingPath
        let encoder = JSONValueEncoderImpl(options: options, codingPath: path)
        try value.encode(to: encoder)
        // The value has finished encoding: fold its containers now, so the
        // tree holds plain values rather than references.
        return encoder.result.map { .value($0.resolved()) }
    }

    /// A double as JSON, or an error naming the path when it is not finite.
    func box(_ value: Double, at key: (any CodingKey)?) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(
                codingPath: key.map { codingPath + [$0] } ?? codingPath,
                debugDescription: "\(value) is not a valid JSON number (JSON has no NaN or infinity)"
            ))
        }
        return .double(value)
    }

    /// An integer as JSON, or an error naming the path when it does not fit
    /// in `Int64`.
    func box<T: BinaryInteger>(_ value: T, at key: (any CodingKey)?) throws -> JSONValue {
        guard let exact = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, .init(
                codingPath: key.map { codingPath + [$0] } ?? codingPath,
                debugDescription: "\(T.self) value \(value) does not fit in a JSON integer (Int64)"
            ))
        }
        return .integer(exact)
    }
}
