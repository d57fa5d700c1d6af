/// A JSON document: the shape of every state, action and patch in StateSync.
///
/// An integer literal that fits in `Int64` is ``integer(_:)``, any other number
/// ``double(_:)``; numbers compare by value (`.integer(1) == .double(1.0)`).
/// Large ``JSONArray``s and ``JSONObject``s share unchanged storage between
/// versions. Equality, hashing, serialization, the diff and coding recurse:
/// parsed values are at most the parser's `maxDepth` (512) deep; a hand-built
/// value far deeper could exhaust the stack.
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
    /// Any other number, meant to be finite: a non-finite one (only built by
    /// hand) serializes as `null`. `2.0` stays a double but equals `2`.
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
