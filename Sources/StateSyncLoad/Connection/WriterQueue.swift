/// A writer's unanswered actions, oldest first (a server answers a
/// session's dispatches in order).
struct WriterQueue {
    struct Outstanding {
        var sequence: Int
        var sent: UInt64
        var path: PathTable.ID
    }

    private var items: [Outstanding] = []
    private var head = 0

    var count: Int { items.count - head }
    var first: Outstanding? { head < items.count ? items[head] : nil }

    mutating func append(_ item: Outstanding) {
        items.append(item)
    }

    /// Removes and returns the oldest.
    mutating func removeFirst() -> Outstanding? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1_024, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }
}
