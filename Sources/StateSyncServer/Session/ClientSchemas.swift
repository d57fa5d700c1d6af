public import StateSyncCore
public import StateSyncProtocol

/// The app schema versions a server's clients may speak, and how an action
/// written for an older version becomes one of the app's.
///
/// A `hello` that declares a version below ``accepted`` is refused
/// `upgrade_required`; one above it (a client newer than this node, during
/// a rolling upgrade) `schema_too_new`, so that the client moves to another
/// node. A `hello` that declares none is accepted (the protocol before
/// versions). A dispatch is upcast from the version it names, else the
/// session's, through the app's ``StateSyncApp/migrations``.
///
/// ```swift
/// let schemas = try ClientSchemas(app: Board.self, minimum: nil)   // accepts Board.schemaVersion only
/// ```
public struct ClientSchemas: Sendable {
    /// The versions a `hello` may declare: the minimum to the app's version.
    public let accepted: ClosedRange<Int>
    private let migrations: SchemaMigrations

    /// The schemas of `app`, accepting clients from `minimum` (default: the
    /// app's own version; lower only when the app's state still reads as
    /// the older versions expect) up to the app's version. A minimum outside
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
