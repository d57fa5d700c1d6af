import Synchronization

/// The send time of the oldest unanswered action over all writers: every action
/// sent before it has been answered. A `Mutex` guards the table.
final class AnswerWatermark: Sendable {
    /// "Nothing outstanding".
    static let clear = UInt64.max

    private let oldest: Mutex<[UInt64]>

    init(writers: Int) {
        oldest = Mutex(Array(repeating: Self.clear, count: writers))
    }

    /// Writer `writer`'s oldest unanswered action was sent at `sent` (``clear`` for none).
    func update(writer: Int, oldestSent sent: UInt64) {
        oldest.withLock { $0[writer] = sent }
    }

    /// The earliest send time of any unanswered action, or ``clear``.
    var value: UInt64 {
        oldest.withLock { $0.min() ?? Self.clear }
    }
}
