/// Why an app's schema versions, or stored data, cannot be brought to the
/// app's current version. Each message names the version or step at fault.
public enum SchemaError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An app's `schemaVersion` below 1.
    case invalidVersion(Int)
    /// No migration from `from` to `from + 1`, though the chain needs one.
    case missingStep(from: Int)
    /// Two migrations from the same version.
    case duplicateStep(from: Int)
    /// A migration from `from`, at or past the app's `version`.
    case stepBeyondVersion(from: Int, version: Int)
    /// Data written by a newer version than the app knows.
    case storedVersionNewer(stored: Int, known: Int)
    /// A stored version below 1 (damaged, or not written by StateSync).
    case invalidStoredVersion(Int)
    /// The migration from `from` threw on a state or an action.
    case migrationFailed(from: Int, of: MigratedValue, reason: String)

    /// What a failed migration was migrating.
    public enum MigratedValue: String, Sendable {
        case state, action
    }

    /// One line naming what is wrong.
    public var description: String {
        switch self {
        case .invalidVersion(let version):
            "the app's schemaVersion must be at least 1, not \(version)"
        case .missingStep(let from):
            "no migration from schema version \(from) to \(from + 1): register one, in order"
        case .duplicateStep(let from):
            "two migrations from schema version \(from) to \(from + 1): keep one"
        case .stepBeyondVersion(let from, let version):
            "a migration from schema version \(from) to \(from + 1), but the app's schemaVersion is \(version)"
        case .storedVersionNewer(let stored, let known):
            "the stored data is at schema version \(stored), newer than this build's \(known): run a build that knows it"
        case .invalidStoredVersion(let version):
            "the stored data names schema version \(version), which no build writes"
        case .migrationFailed(let from, let value, let reason):
            "the migration from schema version \(from) to \(from + 1) failed on \(value == .state ? "the state" : "an action"): \(reason)"
        }
    }
}
