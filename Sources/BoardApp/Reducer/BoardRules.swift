public import StateSyncCore

/// The board's fixed rules (docs/PROTOCOL.md, "Example application") and
/// the checks that enforce them. The limits a server may change (how many
/// todos and counters, how long a counter name or todo id) are
/// ``BoardLimits``.
///
/// Lengths count **Unicode scalars** (`String.unicodeScalars.count`), not
/// `Character`s: grapheme breaking changes with Unicode versions, so a count
/// of `Character`s could accept an action on one server build and reject it
/// on the next, breaking journal replay; scalars never change, cost O(n)
/// without Unicode tables, and match what Python's `len` counts. An `"é"`
/// written as `e` + U+0301 is therefore two characters here.
///
/// ```swift
/// try BoardRules.checkTitle("Milk")                         // fine
/// try BoardRules.checkTitle(String(repeating: "x", count: 201))
/// // invalid_action: title is 201 characters long; the limit is 200
/// ```
public enum BoardRules {
    /// The longest todo title, in Unicode scalars: 200.
    public static let maxTitleLength = 200
    /// The longest chat message, in Unicode scalars: 500.
    public static let maxMessageLength = 500
    /// The largest `abs(by)` of `increment`: 1,000,000.
    public static let maxIncrement: Int64 = 1_000_000
    /// How many chat messages are kept (the oldest go first): 100.
    public static let chatHistory = 100
    /// The most sides of a die rolled with `/roll N`: 1,000,000 (the fewest is 2).
    public static let maxDiceSides: Int64 = 1_000_000

    /// Rejects a die with fewer than 2 or more than ``maxDiceSides`` sides,
    /// or a result outside `1...sides`.
    public static func checkRoll(sides: Int64, result: Int64) throws(Rejection) {
        guard (2...maxDiceSides).contains(sides) else {
            throw .invalidAction("a die has 2 to \(maxDiceSides) sides, not \(sides)")
        }
        guard (1...sides).contains(result) else {
            throw .invalidAction("a \(sides)-sided die cannot roll \(result)")
        }
    }

    /// Rejects an empty title or one over ``maxTitleLength``.
    public static func checkTitle(_ title: String) throws(Rejection) {
        try checkLength(title, of: "title", limit: maxTitleLength)
    }

    /// Rejects an empty chat text or one over ``maxMessageLength``.
    public static func checkMessage(_ text: String) throws(Rejection) {
        try checkLength(text, of: "text", limit: maxMessageLength)
    }

    /// Rejects an empty counter name or an `abs(by)` over ``maxIncrement``
    /// (how long a name may be is a server's limit: ``BoardLimits``).
    public static func checkIncrement(counter: String, by: Int64) throws(Rejection) {
        guard !counter.isEmpty else { throw .invalidAction("counter name must not be empty") }
        guard by.magnitude <= maxIncrement.magnitude else {
            throw .invalidAction("by \(by) is out of range: abs(by) must be at most \(maxIncrement)")
        }
    }

    private static func checkLength(_ text: String, of field: String, limit: Int) throws(Rejection) {
        guard !text.isEmpty else { throw .invalidAction("\(field) must not be empty") }
        let length = text.unicodeScalars.count
        guard length <= limit else {
            throw .invalidAction("\(field) is \(length) characters long; the limit is \(limit)")
        }
    }
}
