/// A dictionary that keeps one entry inline and allocates a `Dictionary` only
/// for a second: a session's subscription tables almost always hold one.
/// Iteration order is the `Dictionary`'s (none to rely on).
struct SmallDictionary<Key: Hashable, Value> {
    fileprivate enum Storage {
        case empty
        case one(Key, Value)
        case many([Key: Value])
    }

    private var storage = Storage.empty

    /// An empty dictionary.
    init() {}

    /// How many entries there are.
    var count: Int {
        switch storage {
        case .empty: 0
        case .one: 1
        case .many(let entries): entries.count
        }
    }

    /// Whether there is no entry.
    var isEmpty: Bool { count == 0 }

    /// The value of `key`; setting `nil` removes the entry.
    subscript(key: Key) -> Value? {
        get {
            switch storage {
            case .empty: nil
            case .one(let only, let value): only == key ? value : nil
            case .many(let entries): entries[key]
            }
        }
        set {
            guard let newValue else {
                removeValue(forKey: key)
                return
            }
            switch storage {
            case .empty:
                storage = .one(key, newValue)
            case .one(let only, let value):
                storage = only == key ? .one(key, newValue) : .many([only: value, key: newValue])
            case .many:
                var entries = takeMany()
                entries[key] = newValue
                storage = .many(entries)
            }
        }
    }

    /// Removes `key`'s entry; returns its value, `nil` when there was none.
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        switch storage {
        case .empty:
            return nil
        case .one(let only, let value):
            guard only == key else { return nil }
            storage = .empty
            return value
        case .many:
            var entries = takeMany()
            let removed = entries.removeValue(forKey: key)
            if entries.count == 1, let only = entries.first {
                storage = .one(only.key, only.value)
            } else {
                storage = .many(entries)
            }
            return removed
        }
    }

    /// Moves the dictionary of ``Storage/many(_:)`` out, leaving `.empty`,
    /// so that the caller changes it in place. (Bound in a `case` of the
    /// `switch` over `storage`, it stays shared for the case's body.)
    private mutating func takeMany() -> [Key: Value] {
        guard case .many(let entries) = storage else { preconditionFailure("takeMany() on \(storage)") }
        storage = .empty
        return entries
    }

    /// The keys, in iteration order.
    var keys: [Key] { map(\.key) }
}

extension SmallDictionary: Sequence {
    /// Iterates the entries as `(key, value)` pairs.
    struct Iterator: IteratorProtocol {
        private var single: (key: Key, value: Value)?
        private var entries: Dictionary<Key, Value>.Iterator?

        fileprivate init(_ storage: Storage) {
            switch storage {
            case .empty: break
            case .one(let key, let value): single = (key, value)
            case .many(let all): entries = all.makeIterator()
            }
        }

        mutating func next() -> (key: Key, value: Value)? {
            if let single {
                self.single = nil
                return single
            }
            return entries?.next()
        }
    }

    func makeIterator() -> Iterator {
        Iterator(storage)
    }

    var underestimatedCount: Int { count }
}

extension SmallDictionary: Sendable where Key: Sendable, Value: Sendable {}
extension SmallDictionary.Storage: Sendable where Key: Sendable, Value: Sendable {}

extension SmallDictionary: ExpressibleByDictionaryLiteral {
    /// A dictionary of `elements` (later duplicates win).
    init(dictionaryLiteral elements: (Key, Value)...) {
        for (key, value) in elements { self[key] = value }
    }
}
