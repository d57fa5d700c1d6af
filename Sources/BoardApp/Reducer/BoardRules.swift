public import StateSyncCore

/// The board's fixed rules (docs/PROTOCOL.md, "Example application") and their checks; the limits
/// a server may change are ``BoardLimits``. Lengths count Unicode scalars, not `Character`s:
/// grapheme breaking changes between Unicode versions, and replay must not.
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
