/// The journal entries of a revision range as an `AsyncSequence`, read from
/// the journal one page at a time. Iteration checks that revisions follow
/// each other with no gap and throws ``JournalError`` otherwise.
///
/// ```swift
/// for try await entry in recovery.entries {
///     try reduce(&state, decodeAction(entry.action), entry.meta)
/// }
/// ```
public struct JournalReplay: AsyncSequence, Sendable {
    /// Each element is one entry, in revision order.
    public typealias Element = JournalEntry

    private let journal: any Journal
    private let first: UInt64
    private let last: UInt64
    private let pageSize: UInt64

    /// The entries of `journal` after revision `after`, through `through`.
    public init(journal: any Journal, after: UInt64, through: UInt64, pageSize: Int = 1_000) {
        self.journal = journal
        self.first = after + 1
        self.last = through
        self.pageSize = UInt64(Swift.max(1, pageSize))
    }

    /// How many entries the sequence yields.
    public var count: UInt64 { last >= first ? last - first + 1 : 0 }

    /// An iterator reading the first page on its first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(journal: journal, next: first, last: last, pageSize: pageSize)
    }

    /// Reads the entries one page (the `pageSize` given to the sequence) at a
    /// time and yields them.
    public struct Iterator: AsyncIteratorProtocol {
        private let journal: any Journal
        private var nextRevision: UInt64
        private let last: UInt64
        private let pageSize: UInt64
        private var page: [JournalEntry] = []
        private var index = 0

        fileprivate init(journal: any Journal, next: UInt64, last: UInt64, pageSize: UInt64) {
            self.journal = journal
            self.nextRevision = next
            self.last = last
            self.pageSize = pageSize
        }

        /// The next entry, or `nil` after the last one.
        ///
        /// - Throws: ``JournalError`` when reading fails or an entry is missing.
        public mutating func next() async throws -> JournalEntry? {
            guard nextRevision <= last else { return nil }
            if index == page.count {
                let through = Swift.min(last, nextRevision + pageSize - 1)
                page = try await journal.entries(from: nextRevision, through: through)
                index = 0
            }
            guard index < page.count, page[index].revision == nextRevision else {
                throw JournalError.missingEntry(nextRevision, lastRevision: last)
            }
            defer {
                index += 1
                nextRevision += 1
            }
            return page[index]
        }
    }
}
