/// An app's migrations, one ``SchemaMigration`` per version before its
/// `schemaVersion`; ``validate(upTo:)`` checks the chain at start-up.
///
/// ```swift
/// static let schemaVersion = 3
/// static let migrations: SchemaMigrations = [
///     SchemaMigration(from: 1) { state in … },
///     SchemaMigration(from: 2) { state in … } action: { action in … },
/// ]
/// ```
public struct SchemaMigrations: Sendable, ExpressibleByArrayLiteral {
    /// The steps, as registered.
    public let steps: [SchemaMigration]

    /// The steps `steps`, in the order given (``validate(upTo:)`` says
    /// whether they form a chain).
    public init(_ steps: [SchemaMigration]) {
        self.steps = steps
    }

    /// The steps of an array literal.
    public init(arrayLiteral steps: SchemaMigration...) {
        self.init(steps)
    }

    /// Checks that the steps lead from version 1 to `version`, each once,
    /// none past it: a gap, a duplicate or a step beyond the version is an
    /// error naming it.
    public func validate(upTo version: Int) throws(SchemaError) {
        guard version >= 1 else { throw .invalidVersion(version) }
        var seen: Set<Int> = []
        for step in steps {
            guard step.from >= 1, step.from < version else { throw .stepBeyondVersion(from: step.from, version: version) }
            guard seen.insert(step.from).inserted else { throw .duplicateStep(from: step.from) }
        }
        if let missing = (1..<version).first(where: { !seen.contains($0) }) { throw .missingStep(from: missing) }
    }

    /// `state`, stored by version `stored`, migrated step by step to `version`.
    public func migrateState(_ state: JSONValue, from stored: Int, to version: Int) throws(SchemaError) -> JSONValue {
        try apply(to: state, from: stored, to: version, .state) { try $0.migrateState($1) }
    }

    /// `action`, journaled by version `stored`, upcast step by step to `version`.
    public func upcastAction(_ action: JSONValue, from stored: Int, to version: Int) throws(SchemaError) -> JSONValue {
        try apply(to: action, from: stored, to: version, .action) { try $0.upcastAction($1) }
    }

    /// Runs `run` of each step from `stored` up to `version` on `value`, in order.
    private func apply(
        to value: JSONValue, from stored: Int, to version: Int, _ kind: SchemaError.MigratedValue,
        _ run: (SchemaMigration, JSONValue) throws -> JSONValue
    ) throws(SchemaError) -> JSONValue {
        guard stored >= 1 else { throw .invalidStoredVersion(stored) }
        guard stored <= version else { throw .storedVersionNewer(stored: stored, known: version) }
        var value = value
        for from in stored..<version {
            guard let step = steps.first(where: { $0.from == from }) else { throw .missingStep(from: from) }
            do {
                value = try run(step, value)
            } catch {
                throw .migrationFailed(from: from, of: kind, reason: "\(error)")
            }
        }
        return value
    }
}
