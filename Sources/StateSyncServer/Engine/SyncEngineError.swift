/// Why a ``SyncEngine`` could not start or stop cleanly.
///
/// ```swift
/// do { _ = try await SyncEngine<BoardApp>(journal: journal) }
/// catch let error as SyncEngineError { logger.critical("\(error)") }
/// ```
public struct SyncEngineError: Error, CustomStringConvertible {
    private enum Base {
        case undecodableSnapshot(revision: UInt64, reason: String)
        case undecodableEntry(revision: UInt64, reason: String)
        case rejectedOnReplay(revision: UInt64, code: String, message: String)
        case unencodableState(reason: String)
        case unmigratable(revision: UInt64, what: String, version: Int, reason: String)
    }

    private let base: Base

    /// The snapshot at `revision` does not decode as the app's state.
    static func undecodableSnapshot(revision: UInt64, reason: String) -> SyncEngineError {
        SyncEngineError(base: .undecodableSnapshot(revision: revision, reason: reason))
    }

    /// The journal entry at `revision` does not decode as a session command.
    static func undecodableEntry(revision: UInt64, reason: String) -> SyncEngineError {
        SyncEngineError(base: .undecodableEntry(revision: revision, reason: reason))
    }

    /// Replaying the journal entry at `revision` was rejected by the reducer:
    /// the reducer is not deterministic or the journal belongs to another app.
    static func rejectedOnReplay(revision: UInt64, code: String, message: String) -> SyncEngineError {
        SyncEngineError(base: .rejectedOnReplay(revision: revision, code: code, message: message))
    }

    /// The snapshot or entry (`what`) at `revision`, written by schema
    /// version `version`, cannot be brought to the app's (see ``SchemaError``).
    static func unmigratable(revision: UInt64, what: String, version: Int, reason: String) -> SyncEngineError {
        SyncEngineError(base: .unmigratable(revision: revision, what: what, version: version, reason: reason))
    }

    /// The state does not encode to JSON (a non-finite number, for one).
    static func unencodableState(reason: String) -> SyncEngineError {
        SyncEngineError(base: .unencodableState(reason: reason))
    }

    /// A sentence naming the revision and the reason.
    public var description: String {
        switch base {
        case let .undecodableSnapshot(revision, reason):
            "the snapshot at revision \(revision) does not decode as the app's state: \(reason)"
        case let .undecodableEntry(revision, reason):
            "the journal entry at revision \(revision) does not decode: \(reason)"
        case let .rejectedOnReplay(revision, code, message):
            "replaying revision \(revision) was rejected (\(code): \(message)); is the reducer deterministic, and is this the same app's journal?"
        case let .unencodableState(reason):
            "the state does not encode to JSON: \(reason)"
        case let .unmigratable(revision, what, version, reason):
            "the \(what) at revision \(revision), of schema version \(version), cannot be read by this build: \(reason)"
        }
    }
}
