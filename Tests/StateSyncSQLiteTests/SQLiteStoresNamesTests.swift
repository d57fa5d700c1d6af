import Logging
import StateSyncJournal
import StateSyncJournalTesting
import TestProcessSupport
import Testing
@testable import StateSyncSQLite

/// A listing's page of store names: ``SQLiteStores`` reads it from the
/// names' index, and it must give the pages the protocol's default (sorting
/// every name) gives.
@Suite(.timeLimit(.minutes(1)))
struct SQLiteStoresNamesTests {
    /// ``SQLiteStores`` without its own `names(after:limit:)`: the default applies.
    struct DefaultPaging: StoreJournals {
        let base: SQLiteStores
        func open(_ store: String, logger: Logger, writeFailed: @escaping @Sendable () -> Void) async throws -> any Journal {
            try await base.open(store, logger: logger, writeFailed: writeFailed)
        }
        func exists(_ store: String) -> Bool { base.exists(store) }
        func names() -> [String] { base.names() }
        func remove(_ store: String) async throws { try await base.remove(store) }
        func close() async throws { try await base.close() }
    }

    /// Every page of `stores` after `after`, `limit` names each, until one comes back short.
    func pages(of stores: some StoreJournals, limit: Int) async -> [[String]] {
        var pages: [[String]] = []
        var after: String?
        while true {
            let page = await stores.names(after: after, limit: limit)
            pages.append(page)
            guard page.count == limit, let last = page.last else { return pages }
            after = last
        }
    }

    @Test func pagesGoThroughEveryNameInOrderAsTheDefaultDoes() async throws {
        try await withTemporaryDirectory { directory in
            let stores = try await openStores(directory)
            let names = (0..<30).map { "s-\($0)" } + ["a", "z.9", "m_x", "s-3-b"]
            for name in names.shuffled() {
                let journal = try await stores.journal(name)
                try await journal.append(JournalBatch(entries: [JournalSamples.entry(1)]))   // its first commit writes its row
                try await journal.close()
            }
            let read = await pages(of: stores, limit: 7)
            #expect(read.flatMap { $0 } == names.sorted())
            #expect(read.map(\.count) == [7, 7, 7, 7, 6])
            #expect(await pages(of: DefaultPaging(base: stores), limit: 7) == read)
            #expect(await stores.names(after: "s-9", limit: 7) == ["z.9"])
            #expect(await stores.names(after: "z.9", limit: 7) == [])
            #expect(await stores.names(after: nil, limit: 0) == [])
            try await stores.close()
        }
    }
}
