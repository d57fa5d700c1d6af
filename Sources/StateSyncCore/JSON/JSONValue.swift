/// A JSON document: the shape of every state, action and patch in StateSync.
///
/// Numbers keep the distinction JSON text makes: an integer literal that fits
/// in 64 bits is stored exactly as ``integer(_:)``; any other number (a
/// fraction, an exponent, or an integer too large for `Int64`) is a
/// ``double(_:)``. Two numbers compare equal when they denote the same value,
/// so `.integer(1) == .double(1.0)`.
///
/// Objects are ``JSONObject``s, whose keys are kept in one deterministic order
/// (see its documentation), so equal values always serialize to equal bytes.
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
    /// An ordered list of values.
    case array([JSONValue])
    /// A map from string keys to values.
    case object(JSONObject)
}
