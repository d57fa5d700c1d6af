import StateSyncJournal
import StateSyncJournalTesting
import Synchronization
import TestProcessSupport
import Testing
@testable import StateSyncSQLite

/// A store's journal of ``SQLiteStores`` keeps the journal contract
/// (``JournalContract``): every journal a case opens is a new store of one
/// shared file (one file per retention a case asks for).
@Suite(.timeLimit(.minutes(1)))
struct SQLiteStoresContractTests {
    @Test(arguments: JournalContract.cases)
    func keepsTheContract(_ contract: JournalContractCase) async throws {
        try await withTemporaryDirectory { directory in
            let files = FileByRetention(directory: directory)
            do {
                try await contract.run { retention in try await files.newStore(retention: retention) }
            } catch {
                try? await files.closeAll()   // the case's failure is the one to report
                throw error
            }
            try await files.closeAll()
        }
    }
}

/// One ``SQLiteStores`` per retention under one directory, each opening a
/// new store on every call.
private final class FileByRetention: Sendable {
    private let directory: String
    private let opened = Mutex<(files: [JournalRetention: SQLiteStores], stores: Int)>(([:], 0))

    init(directory: String) {
        self.directory = directory
    }

    func newStore(retention: JournalRetention) async throws -> any Journal {
        let (known, number) = opened.withLock { opened in
            opened.stores += 1
            return (opened.files[retention], opened.stores)
        }
        let file: SQLiteStores
        if let known {
            file = known
        } else {
            file = try await SQLiteStores.open(
                configuration: .init(journal: .init(directory: "\(directory)/\(number)", retention: retention)), logger: quietLogger)
            opened.withLock { $0.files[retention] = file }
        }
        return try await file.open("store-\(number)", logger: quietLogger, writeFailed: {})
    }

    func closeAll() async throws {
        for file in opened.withLock({ Array($0.files.values) }) { try await file.close() }
    }
}
