import Configuration

/// One setting of `statesync serve` under its three spellings: a file key (`session.maxMessageBytes`),
/// a flag (`--max-message-bytes`) and a variable (`STATESYNC_MAX_MESSAGE_BYTES`).
struct Setting<Value: SettingValue>: Sendable {
    /// The setting's names, without its type.
    let name: SettingName
    /// What `--print-config` shows instead of a secret value; `nil` when the setting is not secret.
    let mask: (@Sendable (Value) -> Value)?

    /// A setting whose file key is `fileKey` (dot-separated) and whose flag is `flag`.
    /// A `secret` one is masked by `--print-config` with `mask`.
    init(_ fileKey: String, flag: String, secret mask: (@Sendable (Value) -> Value)? = nil) {
        name = SettingName(fileKey: fileKey, flag: flag, isSecret: mask != nil)
        self.mask = mask
    }

    /// The key swift-configuration's providers are asked for.
    var key: AbsoluteConfigKey { name.key }
}

/// The names of a ``Setting``, whatever its type: what the configuration
/// file, the environment and the command line call it.
struct SettingName: Sendable, Hashable {
    /// The dot-separated key in a configuration file, e.g. `network.port`.
    let fileKey: String
    /// The flag, e.g. `--port`.
    let flag: String
    /// Whether its value is a secret (masked by `--print-config`).
    let isSecret: Bool

    /// The key swift-configuration's providers are asked for.
    var key: AbsoluteConfigKey { AbsoluteConfigKey(fileKey.split(separator: ".").map(String.init)) }

    /// The environment variable: `STATESYNC_` and the key's last part with
    /// its camelCase words upper-cased and joined by `_` (`maxConnectionsPerIp`:
    /// `STATESYNC_MAX_CONNECTIONS_PER_IP`, `postgresURL`: `STATESYNC_POSTGRES_URL`).
    var environmentVariable: String {
        var name = "STATESYNC_"
        var previous: Character?
        for character in fileKey.split(separator: ".").last ?? "" {
            if let previous, previous.isLowercase, character.isUppercase { name.append("_") }
            name += character.uppercased()
            previous = character
        }
        return name
    }

    /// The environment provider's key for this setting: ``environmentVariable``
    /// is what swift-configuration's `EnvironmentVariablesProvider` makes of it.
    var environmentKey: AbsoluteConfigKey { AbsoluteConfigKey(["statesync", String(fileKey.split(separator: ".").last ?? "")]) }
}
