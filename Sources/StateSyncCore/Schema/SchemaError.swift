/// Why an app's schema versions, or stored data, cannot be brought to the
/// app's current version. Each message names the version or step at fault.
public struct SchemaError: Error, Equatable, Sendable, CustomStringConvertible {
    private enum Base: Equatable, Sendable {
        case invalidVersion(Int)
        case missingStep(from: Int)
        case duplicateStep(from: Int)
        case stepBeyondVersion(from: Int, version: Int)
        case storedVersionNewer(stored: Int, known: Int)
        case invalidStoredVersion(Int)
        case migrationFailed(from: Int, of: MigratedValue, reason: String)
        case minimumClientVersionOutOfRange(minimum: Int, version: Int)
    }

    /// What a failed migration was migrating.
    public enum MigratedValue: String, Sendable {
        case state, action
    }

    private let base: Base

    private init(_ base: Base) {
        self.base = base
    }

    /// An app's `schemaVersion` below 1.
    public static func invalidVersion(_ version: Int) -> SchemaError { SchemaError(.invalidVersion(version)) }
    /// No migration from `from` to `from + 1`, though the chain needs one.
    public static func missingStep(from: Int) -> SchemaError { SchemaError(.missingStep(from: from)) }
    /// Two migrations from the same version.
    public static func duplicateStep(from: Int) -> SchemaError { SchemaError(.duplicateStep(from: from)) }
    /// A migration from `from`, at or past the app's `version`.
    public static func stepBeyondVersion(from: Int, version: Int) -> SchemaError {
        SchemaError(.stepBeyondVersion(from: from, version: version))
    }
    /// Data written by a newer version than the app knows.
    public static func storedVersionNewer(stored: Int, known: Int) -> SchemaError {
        SchemaError(.storedVersionNewer(stored: stored, known: known))
    }
    /// A stored version below 1 (damaged, or not written by StateSync).
    public static func invalidStoredVersion(_ version: Int) -> SchemaError { SchemaError(.invalidStoredVersion(version)) }
    /// The migration from `from` threw on a state or an action.
    public static func migrationFailed(from: Int, of value: MigratedValue, reason: String) -> SchemaError {
        SchemaError(.migrationFailed(from: from, of: value, reason: reason))
    }

    /// A server's minimum client schema version outside `1...version`.
    public static func minimumClientVersionOutOfRange(_ minimum: Int, version: Int) -> SchemaError {
        SchemaError(.minimumClientVersionOutOfRange(minimum: minimum, version: version))
    }

    /// One line naming what is wrong.
    public var description: String {
        switch base {
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
        case let .minimumClientVersionOutOfRange(minimum, version):
            "the minimum client schema version must be from 1 to the app's schemaVersion \(version), not \(minimum)"
        }
    }
}
