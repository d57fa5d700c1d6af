import StateSyncCore

/// A writer's unanswered actions by sequence number, and the oldest of them.
/// Answers are matched by id, not position: a session-level refusal (a rate
/// limit) may overtake the answer of an earlier dispatch.
struct WriterQueue {
    struct Outstanding {
        var sequence: Int
        var sent: UInt64
        var path: PathTable.ID
        /// The action, sent again with the same id after a reconnect.
        var action: JSONObject
    }

    private var pending: [Int: Outstanding] = [:]
    /// Sequence numbers in sending order; answered ones are skipped lazily.
    private var order: [Int] = []
    private var head = 0

    /// Unanswered actions.
    var count: Int { pending.count }

    mutating func append(_ item: Outstanding) {
        pending[item.sequence] = item
        order.append(item.sequence)
    }

    /// Removes and returns the action with `sequence`, or `nil` when it is not outstanding.
    mutating func remove(sequence: Int) -> Outstanding? {
        pending.removeValue(forKey: sequence)
    }

    /// The oldest unanswered action (forgetting answered ones ahead of it).
    mutating func oldest() -> Outstanding? {
        while head < order.count {
            if let item = pending[order[head]] { return item }
            head += 1
        }
        order.removeAll(keepingCapacity: true)
        head = 0
        return nil
    }

    /// The unanswered actions in sending order (an outbox to send again
    /// after a reconnect).
    var inSendingOrder: [Outstanding] {
        order[head...].compactMap { pending[$0] }
    }

    /// Whether `sequence` is outstanding.
    func contains(_ sequence: Int) -> Bool {
        pending[sequence] != nil
    }

    /// Drops the answered prefix of `order` once it is large (amortized O(1)).
    mutating func compact() {
        guard head >= 1_024, head * 2 >= order.count else { return }
        order.removeFirst(head)
        head = 0
    }
}
