public import StateSyncCore

/// The board's limits (docs/PROTOCOL.md, "Example application") and the
/// checks that enforce them.
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
    /// The most todos the board holds: 10,000 (a list far longer than anyone
    /// reads, ~1 MB of JSON); `addTodo` beyond it is rejected `limit_reached`.
    public static let maxTodos = 10_000
    /// The most counters the board holds: 10,000; a new counter beyond it is
    /// rejected `limit_reached` (existing ones still change).
    public static let maxCounters = 10_000
    /// The longest counter name, in Unicode scalars: 100.
    public static let maxCounterNameLength = 100
    /// The longest todo id a client may name, in Unicode scalars: 32 (the
    /// server's ids, `t<rev>`, have at most 21): a longer one cannot exist,
    /// and is not echoed back in a `not_found` message.
    public static let maxTodoIDLength = 32

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

    /// Rejects an empty counter name, one over ``maxCounterNameLength``, or
    /// an `abs(by)` over ``maxIncrement``.
    public static func checkIncrement(counter: String, by: Int64) throws(Rejection) {
        guard !counter.isEmpty else { throw .invalidAction("counter name must not be empty") }
        try checkCounterName(counter)
        guard by.magnitude <= maxIncrement.magnitude else {
            throw .invalidAction("by \(by) is out of range: abs(by) must be at most \(maxIncrement)")
        }
    }

    /// Rejects a counter name over ``maxCounterNameLength``.
    public static func checkCounterName(_ counter: String) throws(Rejection) {
        let length = counter.unicodeScalars.count
        guard length <= maxCounterNameLength else {
            throw .invalidAction("counter name is \(length) characters long; the limit is \(maxCounterNameLength)")
        }
    }

    /// Rejects a todo id over ``maxTodoIDLength`` (no todo has one).
    public static func checkTodoID(_ id: String) throws(Rejection) {
        let length = id.unicodeScalars.count
        guard length <= maxTodoIDLength else {
            throw .invalidAction("todo id is \(length) characters long; ids have at most \(maxTodoIDLength)")
        }
    }

    /// Rejects a todo beyond ``maxTodos`` in a board holding `count`.
    public static func checkRoomForTodo(count: Int) throws(Rejection) {
        guard count < maxTodos else {
            throw Rejection(code: "limit_reached", message: "the board holds \(maxTodos) todos, its limit: remove some first")
        }
    }

    /// Rejects a new counter beyond ``maxCounters`` in a board holding `count`.
    public static func checkRoomForCounter(count: Int) throws(Rejection) {
        guard count < maxCounters else {
            throw Rejection(code: "limit_reached", message: "the board holds \(maxCounters) counters, its limit")
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
