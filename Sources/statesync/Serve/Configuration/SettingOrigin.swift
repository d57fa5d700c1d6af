/// Where a setting's value came from, and so what errors call it: the
/// flag, the environment variable or the file key the user wrote.
enum SettingOrigin: Sendable, Hashable {
    /// A flag on the command line, e.g. `--port`.
    case flag(String)
    /// An environment variable, e.g. `STATESYNC_PORT`.
    case environment(String)
    /// A key of the configuration file at `path`, e.g. `network.port`.
    case file(key: String, path: String)
    /// Nobody set it: the default. Errors call it by its `flag`.
    case defaultValue(flag: String)

    /// The setting as the user gave it: `--port`, `STATESYNC_PORT`,
    /// `statesync.yaml's network.port`.
    var name: String {
        switch self {
        case .flag(let flag), .defaultValue(let flag): flag
        case .environment(let variable): variable
        case .file(let key, let path): "\(path)'s \(key)"
        }
    }

    /// The setting and its value as the user gave them: `--port 70000`,
    /// `STATESYNC_PORT=70000`, `statesync.yaml's network.port 70000`.
    func naming(_ value: some CustomStringConvertible) -> String {
        switch self {
        case .environment(let variable): "\(variable)=\(value)"
        default: "\(name) \(value)"
        }
    }

    /// How strongly the value holds: flags win over the environment, which
    /// wins over the file, which wins over the defaults.
    var precedence: Int {
        switch self {
        case .flag: 3
        case .environment: 2
        case .file: 1
        case .defaultValue: 0
        }
    }

    /// A short note for `--print-config`: `--port`, `STATESYNC_PORT`, `file`, `default`.
    var note: String {
        switch self {
        case .flag(let flag): flag
        case .environment(let variable): variable
        case .file: "file"
        case .defaultValue: "default"
        }
    }
}

/// A setting's value together with where it came from.
struct Given<Value: SettingValue>: Sendable {
    /// The value.
    var value: Value
    /// Where it came from.
    var origin: SettingOrigin
}
