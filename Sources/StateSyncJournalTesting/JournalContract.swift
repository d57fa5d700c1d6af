public import StateSyncJournal
import Synchronization

/// The contract every ``Journal`` keeps, as cases a storage module's tests
/// run against its own journal: memory, SQLite and PostgreSQL run the same
/// ones, and so can a journal written outside this package.
///
/// ```swift
/// @Test(arguments: JournalContract.cases)
/// func keepsTheContract(_ contract: JournalContractCase) async throws {
///     try await contract.run { retention in MyJournal(retention: retention) }
/// }
/// ```
public enum JournalContract {
    /// Every case, each opening its own journals.
    public static let cases: [JournalContractCase] = [
        .appendedEntriesReadBackInOrder,
        .aJournalKnownEmptyIsEmptyUntilItsFirstWrite,
        .gapsAreRefusedAndTheJournalStaysUsable,
        .outcomesRememberAcceptsAndRejectsAndKeepTheFirst,
        .outcomesLeaveOnlyByTheirOwnClientsTrimOrWhenTheClientIsForgotten,
        .snapshotsOverTheKeptEntriesStayAndTheNearestIsFound,
        .oldestRevisionAndSnapshotRevisionsTellWhatTimeTravelCanRebuild,
        .recoveryStartsAtTheLatestSnapshotAndStreamsTheRest,
        .appendsWithoutWaitingAllCompleteInOrder,
        .aClosedJournalRefusesEverything,
        .entriesAndSnapshotsKeepTheirSchemaVersion,
    ]
}

/// Opens a new, empty journal of the kind under test that keeps what
/// `retention` says; each call must return a journal of its own.
public typealias JournalFactory = @Sendable (_ retention: JournalRetention) async throws -> any Journal

/// One rule of the ``JournalContract``, run against journals a
/// ``JournalFactory`` opens; it throws ``JournalContractViolation`` when
/// the journal breaks the rule.
public struct JournalContractCase: Sendable, CustomStringConvertible {
    /// The rule, as a test name.
    public let name: String
    let body: @Sendable (JournalFactory) async throws -> Void

    init(_ name: String, _ body: @escaping @Sendable (JournalFactory) async throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the case on journals `open` returns and closes each afterwards, also when it failed;
    /// throws ``JournalContractViolation`` or the journal's own error.
    public func run(_ open: @escaping JournalFactory) async throws {
        let opened = Mutex<[any Journal]>([])
        let tracking: JournalFactory = { retention in
            let journal = try await open(retention)
            opened.withLock { $0.append(journal) }
            return journal
        }
        do {
            try await body(tracking)
        } catch {
            for journal in opened.withLock({ $0 }) { try? await journal.close() }  // the case's failure is the one to report
            throw error
        }
        for journal in opened.withLock({ $0 }) { try await journal.close() }
    }

    /// The case's ``name``.
    public var description: String { name }
}

/// A journal broke a rule of the ``JournalContract``: the message says which
/// and with which values.
public struct JournalContractViolation: Error, CustomStringConvertible {
    /// What the journal did against the rule.
    public let description: String
}

/// Throws a ``JournalContractViolation`` with `message` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(JournalContractViolation) {
    if !condition { throw JournalContractViolation(description: message()) }
}

/// Throws a ``JournalContractViolation`` unless `actual` equals `expected`.
func requireEqual<T: Equatable>(_ actual: T, _ expected: T, _ what: String) throws(JournalContractViolation) {
    try require(actual == expected, "\(what): expected \(expected), got \(actual)")
}

/// Throws a ``JournalContractViolation`` unless `body` throws a
/// ``JournalError`` that `matches`.
func requireJournalError(
    _ what: String, matching matches: (JournalError) -> Bool = { _ in true }, _ body: () async throws -> Void
) async throws {
    do {
        try await body()
    } catch let error as JournalError {
        try require(matches(error), "\(what): the journal threw an unexpected error: \(error)")
        return
    }
    throw JournalContractViolation(description: "\(what): the journal did not throw")
}
