import Logging
import StateSyncServer

/// The effective configuration of `statesync serve`: the defaults, then a configuration file
/// (`--config FILE` or `STATESYNC_CONFIG`), the `STATESYNC_*` variables and the flags, each
/// winning over those before. Every value is checked as it is read, and an error names it as
/// the user gave it. Keys, variables and flags are listed in docs/configuration.md.
///
/// ```swift
/// let configuration = try ServeConfiguration(
///     flags: flags, environment: ProcessInfo.processInfo.environment, file: "statesync.yaml")
/// let server = StateSyncServer<Board>(configuration: try configuration.serverConfiguration(), logger: logger)
/// ```
struct ServeConfiguration: Sendable {
    /// Where the server listens and whom it answers.
    var network = Network()
    /// Where the journal lives and how much history it keeps.
    var storage = Storage()
    /// How a PostgreSQL node follows the others.
    var cluster = Cluster()
    /// Tokens, roles and restrictions.
    var auth = Auth()
    /// Server-wide bounds on connections and joins.
    var connections = Connections()
    /// What one WebSocket connection may send and hold.
    var session = Session()
    /// The engine's bounds.
    var engine = Engine()
    /// How stores are opened, bounded and closed.
    var stores = Stores()
    /// The built-in board's limits.
    var board = Board()
    /// The least severe log messages written (to stderr). Default `info`:
    /// lifecycle events, not each connection or message.
    var logLevel = Logger.Level.info
    /// Where each setting came from.
    private(set) var origins = SettingOrigins()
    /// The format of the configuration file read; `nil` without one.
    private(set) var fileFormat: ConfigurationFormat?

    /// Every default, built once: what `--help` shows and what names the settings.
    static let defaults = ServeConfiguration()
    /// The server's own defaults, which most settings' defaults are, read
    /// once: its thread count reads the cgroup's CPU limit from files.
    static let serverDefaults = StateSyncServerConfiguration()

    /// The one setting outside the sections: the file's top-level `logLevel`.
    static let logLevelKey = Setting<String>("logLevel", flag: "--log-level")
    /// The environment variable naming a configuration file when `--config` does not.
    static let fileVariable = "STATESYNC_CONFIG"

    /// The defaults.
    init() {}

    /// The configuration `flags`, `environment` and the file at `path` (else `$STATESYNC_CONFIG`)
    /// give together. Throws ``ConfigurationError`` for a refused file, key or value.
    init(flags: FlagValues, environment: [String: String], file path: String?) throws(ConfigurationError) {
        var file: ConfigurationFile?
        if let path = path ?? environment[Self.fileVariable], !path.isEmpty {
            file = try ConfigurationFile(path: path, knownKeys: Set(Self.names.map(\.fileKey)))
        }
        var settings = SettingsReader(flags: flags, environment: environment, file: file)
        network = try Network(reading: &settings)
        storage = try Storage(reading: &settings)
        cluster = try Cluster(reading: &settings)
        auth = try Auth(reading: &settings)
        connections = try Connections(reading: &settings)
        session = try Session(reading: &settings)
        engine = try Engine(reading: &settings)
        stores = try Stores(reading: &settings)
        board = try Board(reading: &settings)
        var level = logLevel.rawValue
        try settings.read(Self.logLevelKey, into: &level, .oneOf(Logger.Level.allCases.map(\.rawValue)))
        logLevel = Logger.Level(rawValue: level) ?? .info
        origins = settings.origins
        fileFormat = file?.format
    }

    /// Every setting and its value, section by section, in the file's order.
    var entries: [ConfigurationEntry] {
        network.entries + storage.entries + cluster.entries + auth.entries + connections.entries + session.entries
            + engine.entries + stores.entries + board.entries + [ConfigurationEntry(Self.logLevelKey, logLevel.rawValue)]
    }

    /// The names of every setting, in the file's order.
    static let names = defaults.entries.map(\.name)
}
