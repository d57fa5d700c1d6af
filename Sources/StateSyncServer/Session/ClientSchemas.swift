public import StateSyncCore
public import StateSyncProtocol

/// The app schema versions a server's clients may speak. A `hello` below
/// ``accepted`` gets `upgrade_required`, above it `schema_too_new`; dispatches
/// are upcast through ``StateSyncApp/migrations``.
///
/// ```swift
/// let schemas = try ClientSchemas(app: Board.self, minimum: nil)   // accepts Board.schemaVersion only
/// ```
public struct ClientSchemas: Sendable {
    /// The versions a `hello` may declare: the minimum to the app's version.
    public let accepted: ClosedRange<Int>
    private let migrations: SchemaMigrations

    /// The schemas of `app`, accepting clients from `minimum` (default: the app's
    /// own version) up to the app's version. A minimum outside
    /// `1...App.schemaVersion` is an error naming it.
    public init<App: StateSyncApp>(app: App.Type, minimum: Int?) throws(SchemaError) {
        let lowest = minimum ?? App.schemaVersion
        guard (1...max(1, App.schemaVersion)).contains(lowest) else {
            throw .minimumClientVersionOutOfRange(lowest, version: App.schemaVersion)
        }
        accepted = lowest...App.schemaVersion
        migrations = App.migrations
    }

    /// An app with no versions: version 1 only, nothing to upcast.
    public static let unversioned = ClientSchemas(accepted: 1...1, migrations: [])

    private init(accepted: ClosedRange<Int>, migrations: SchemaMigrations) {
        self.accepted = accepted
        self.migrations = migrations
    }

    /// The app's version: what the state and its patches are shaped as.
    public var current: Int { accepted.upperBound }

    /// Why a `hello` declaring `declared` is refused, or `nil` when it is not.
    public func refusal(ofHelloDeclaring declared: Int?) -> ProtocolError? {
        guard let declared else { return nil }
        if declared < accepted.lowerBound { return .upgradeRequired(declared: declared, accepted: accepted) }
        if declared > current { return .schemaTooNew(declared: declared, served: current) }
        return nil
    }

    /// `action`, written for schema version `version` (`nil`: the app's),
    /// as an action of the app's version; a failure is the `invalid_action`
    /// rejection's message.
    public func upcast(_ action: JSONObject, writtenFor version: Int?) -> Result<JSONObject, Rejection> {
        guard let version, version != current else { return .success(action) }
        guard version < current else {
            return .failure(Rejection(
                code: RejectCode.invalidAction.rawValue,
                message: "the action was written for app schema version \(version); this server knows versions up to \(current)"))
        }
        do throws(SchemaError) {
            guard let object = try migrations.upcastAction(.object(action), from: version, to: current).objectValue else {
                return .failure(Rejection(
                    code: RejectCode.invalidAction.rawValue,
                    message: "upcasting the action from app schema version \(version) did not give an object"))
            }
            return .success(object)
        } catch {
            return .failure(Rejection(code: RejectCode.invalidAction.rawValue, message: "\(error)"))
        }
    }
}
