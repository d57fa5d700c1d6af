/// A JSON document: the shape of every state, action and patch in StateSync.
///
/// Numbers keep the distinction JSON text makes: an integer literal that fits
/// in 64 bits is stored exactly as ``integer(_:)``; any other number (a
/// fraction, an exponent, or an integer too large for `Int64`) is a
/// ``double(_:)``. Two numbers compare equal when they denote the same value,
/// so `.integer(1) == .double(1.0)`.
///
/// Arrays are ``JSONArray``s and objects ``JSONObject``s: both share the
/// storage of unchanged parts between versions when large.
/// Objects whose keys are kept in one deterministic order
/// (see its documentation), so equal values always serialize to equal bytes.
///
/// Equality, hashing, serialization, the diff and coding are recursive:
/// values from ``JSONParser`` are at most its `maxDepth` (512) levels deep;
/// a value built by hand tens of thousands of levels deep could exhaust the
/// stack.
///
/// ```swift
/// let todo: JSONValue = ["id": "t1", "title": "Milk", "done": false]
/// todo["title"]        // .string("Milk")
/// ```
public enum JSONValue: Sendable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer that fits in 64 bits, kept exact.
    case integer(Int64)
    /// Any other number. Meant to be finite: JSON has no spelling for NaN
    /// or infinity. The parser, ``JSONValueEncoder`` (which throws for
    /// them) and float literals never make a non-finite double; one built
    /// by hand is serialized as `null`, as JavaScript's `JSON.stringify`
    /// does. An integral double stays a double (`2.0` serializes as `2.0`)
    /// but equals the integer of the same value.
    case double(Double)
    /// A string of Unicode scalars.
    case string(String)
    /// An ordered list of values (structure-sharing when large: see ``JSONArray``).
    case array(JSONArray)
    /// A map from string keys to values.
    case object(JSONObject)
}

extension JSONValue {
    /// An array of `elements` (a ``JSONArray``), for
    /// code that builds a plain `Array` first.
    public static func array(_ elements: [JSONValue]) -> JSONValue {
        .array(JSONArray(elements))
    }
}
