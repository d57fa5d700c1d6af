/// An error from a ``Journal`` (opening, writing, reading); messages name the
/// storage and its own error. A struct over a private enum, so cases can be added
/// without breaking callers: compare by ``description`` or the `is…` properties.
public struct JournalError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Base: Sendable, Hashable {
        case cannotCreateDirectory(path: String, reason: String)
        case notWritable(path: String, reason: String)
        case locked(path: String)
        case notAJournal(path: String, reason: String)
        case unsupportedSchema(location: String, version: Int)
        case storage(store: String, operation: String, message: String)
        case commitOutcomeUnknown(store: String, message: String)
        case revisionGap(expected: UInt64, got: UInt64)
        case outcomeConflict(pairs: Int)
        case revisionOverflow(UInt64)
        case snapshotAhead(revision: UInt64, lastRevision: UInt64)
        case entriesDiscarded(requested: UInt64, oldest: UInt64)
        case corruptEntry(path: String, revision: UInt64, reason: String)
        case missingEntry(revision: UInt64, lastRevision: UInt64)
        case damaged(location: String, damage: String, remedy: String)
        case historyLost(store: String, message: String)
        case failed(underlying: String)
        case closed
    }

    private let base: Base

    private init(_ base: Base) { self.base = base }

    package static func cannotCreateDirectory(_ path: String, reason: String) -> JournalError {
        JournalError(.cannotCreateDirectory(path: path, reason: reason))
    }
    package static func notWritable(_ path: String, reason: String) -> JournalError {
        JournalError(.notWritable(path: path, reason: reason))
    }
    package static func locked(_ path: String) -> JournalError { JournalError(.locked(path: path)) }
    package static func notAJournal(_ path: String, reason: String) -> JournalError {
        JournalError(.notAJournal(path: path, reason: reason))
    }
    /// `location` (a file, a database) holds a schema version this code
    /// does not know.
    public static func unsupportedSchema(_ location: String, version: Int) -> JournalError {
        JournalError(.unsupportedSchema(location: location, version: version))
    }
    /// The storage refused or failed a statement: `store` names it and where
    /// it is ("SQLite in PATH", "PostgreSQL at HOST:PORT/DB", never a
    /// password), `operation` what the journal was doing.
    public static func storage(_ store: String, operation: String, message: String) -> JournalError {
        JournalError(.storage(store: store, operation: operation, message: message))
    }
    /// A batch did not continue the journal's revisions: `expected` was next, `got` came.
    public static func revisionGap(expected: UInt64, got: UInt64) -> JournalError {
        JournalError(.revisionGap(expected: expected, got: got))
    }
    /// Another writer of a shared journal had already stored an outcome for
    /// `pairs` of the batch's `(clientId, actionId)` pairs: nothing of the
    /// batch was written.
    public static func outcomeConflict(pairs: Int) -> JournalError {
        JournalError(.outcomeConflict(pairs: pairs))
    }
    /// A revision past what the journal can store.
    public static func revisionOverflow(_ revision: UInt64) -> JournalError {
        JournalError(.revisionOverflow(revision))
    }
    /// A snapshot at a revision the journal has not reached.
    public static func snapshotAhead(_ revision: UInt64, lastRevision: UInt64) -> JournalError {
        JournalError(.snapshotAhead(revision: revision, lastRevision: lastRevision))
    }
    /// Entries asked for are older than the journal keeps.
    public static func entriesDiscarded(requested: UInt64, oldest: UInt64) -> JournalError {
        JournalError(.entriesDiscarded(requested: requested, oldest: oldest))
    }
    package static func corruptEntry(_ path: String, revision: UInt64, reason: String) -> JournalError {
        JournalError(.corruptEntry(path: path, revision: revision, reason: reason))
    }
    package static func missingEntry(_ revision: UInt64, lastRevision: UInt64) -> JournalError {
        JournalError(.missingEntry(revision: revision, lastRevision: lastRevision))
    }
    /// The journal at `location` ends before what was recorded as durable:
    /// `remedy` says what the operator can do.
    package static func damaged(_ location: String, damage: String, remedy: String) -> JournalError {
        JournalError(.damaged(location: location, damage: damage, remedy: remedy))
    }
    /// A shared store lost history this server had seen committed (its head
    /// revision went back, or it started a new epoch): `message` says how.
    package static func historyLost(_ store: String, _ message: String) -> JournalError {
        JournalError(.historyLost(store: store, message: message))
    }
    /// The connection to `store` was lost while `COMMIT` was on its way: the
    /// batch may or may not be durable, so nothing of it may be acknowledged.
    public static func commitOutcomeUnknown(_ store: String, _ message: String) -> JournalError {
        JournalError(.commitOutcomeUnknown(store: store, message: message))
    }
    /// The journal stopped after an earlier write failed; it carries that error.
    public static func failed(after error: JournalError) -> JournalError {
        if case .failed = error.base { return error }
        return JournalError(.failed(underlying: error.description))
    }
    /// The journal was closed.
    public static let closed = JournalError(.closed)

    /// Whether another process (or another journal in this process) holds the
    /// data directory's lock.
    public var isLocked: Bool {
        if case .locked = base { return true }
        return false
    }

    /// Whether the journal ends before the revision recorded as durable
    /// (see ``DamagedJournalPolicy``).
    public var isDamaged: Bool {
        if case .damaged = base { return true }
        return false
    }

    /// Whether a shared store lost history this server had seen committed
    /// (a database failed over to a replica that was behind): following it
    /// would fork what was served.
    public var isHistoryLost: Bool {
        if case .historyLost = base { return true }
        return false
    }

    /// Whether the outcome of a commit is unknown (the connection to the
    /// storage was lost during `COMMIT`).
    public var isCommitOutcomeUnknown: Bool {
        if case .commitOutcomeUnknown = base { return true }
        return false
    }

    /// Whether an appended batch did not continue the journal's revisions.
    public var isRevisionGap: Bool {
        if case .revisionGap = base { return true }
        return false
    }

    /// Whether an appended batch decided a `(clientId, actionId)` pair that
    /// another writer of the shared journal had already decided (the client
    /// sent it to two nodes): nothing of the batch was written.
    public var isOutcomeConflict: Bool {
        if case .outcomeConflict = base { return true }
        return false
    }

    /// A sentence naming what went wrong and with which path or value.
    public var description: String {
        switch base {
        case .cannotCreateDirectory(let path, let reason):
            "cannot create the data directory \(path): \(reason)"
        case .notWritable(let path, let reason):
            "the data directory \(path) is not writable: \(reason)"
        case .locked(let path):
            "the data directory \(path) is in use by another StateSync server (its lock file is held); "
                + "stop that server or choose another data directory"
        case .notAJournal(let path, let reason):
            "\(path) is not a StateSync journal: \(reason)"
        case .unsupportedSchema(let location, let version):
            "\(location) has journal schema version \(version), which this version of StateSync cannot read"
        case .storage(let store, let operation, let message):
            "\(store) failed to \(operation): \(message)"
        case .commitOutcomeUnknown(let store, let message):
            "the connection to \(store) was lost during COMMIT, so whether the batch is stored is unknown "
                + "(none of it is acknowledged; a client's retry finds the outcome): \(message)"
        case .revisionGap(let expected, let got):
            "journal entries must continue without gaps: expected revision \(expected), got \(got)"
        case .outcomeConflict(let pairs):
            "another node had already decided \(pairs) of the batch's (clientId, id) pairs: nothing of the batch was written"
        case .revisionOverflow(let revision):
            "revision \(revision) does not fit the journal's 63-bit revision column"
        case .snapshotAhead(let revision, let lastRevision):
            "cannot store a snapshot at revision \(revision): the journal ends at revision \(lastRevision)"
        case .entriesDiscarded(let requested, let oldest):
            "journal entries before revision \(oldest) are no longer kept (requested \(requested))"
        case .corruptEntry(let path, let revision, let reason):
            "the journal entry at revision \(revision) in \(path) is unreadable: \(reason)"
        case .missingEntry(let revision, let lastRevision):
            "the journal has no entry at revision \(revision) although it ends at revision \(lastRevision)"
        case .damaged(let location, let damage, let remedy):
            "refusing to open \(location): \(damage). \(remedy)"
        case .historyLost(let store, let message):
            "\(store) lost history this server had seen committed: \(message)"
        case .failed(let underlying):
            "the journal stopped accepting writes after a failed write: \(underlying)"
        case .closed:
            "the journal is closed"
        }
    }
}
