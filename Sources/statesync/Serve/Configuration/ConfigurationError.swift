/// Why `statesync serve`'s configuration was refused (a wrong type or range, settings that
/// contradict each other, an unreadable file); the message names the setting as the user
/// gave it and its value, and `serve` exits 2.
struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Base: Sendable, Equatable {
        case notConvertible(SettingOrigin, value: String, expected: String)
        case atLeast(SettingOrigin, value: String, minimum: String, reason: String?)
        case below(SettingOrigin, value: String, minimum: String, reason: String?)
        case notBetween(SettingOrigin, value: String, lower: String, upper: String, unit: String)
        case notOneOf(SettingOrigin, value: String, choices: [String])
        case excludeEachOther(SettingOrigin, SettingOrigin)
        case goTogether(SettingOrigin, SettingOrigin)
        case presenceTimings(heartbeat: SettingOrigin, expiry: SettingOrigin, values: String)
        case unreadableFile(path: String, reason: String)
        case unknownFormat(path: String)
        case malformedFile(path: String, reason: String)
        case noValue(path: String, key: String)
        case unknownKeys(path: String, keys: [String], suggestions: [String: String])
    }

    private let base: Base

    /// A value that is not of its setting's type: `STATESYNC_PORT=http is not an integer`.
    static func notConvertible(_ origin: SettingOrigin, value: String, expected: String) -> Self {
        Self(base: .notConvertible(origin, value: value, expected: expected))
    }

    /// A value below its minimum: `--max-path-depth must be at least 1, not 0`.
    static func atLeast(_ origin: SettingOrigin, value: String, minimum: String, reason: String?) -> Self {
        Self(base: .atLeast(origin, value: value, minimum: minimum, reason: reason))
    }

    /// A size below the smallest that works: `--max-message-bytes 512 is below 1024`, and `reason` in parentheses.
    static func below(_ origin: SettingOrigin, value: String, minimum: String, reason: String?) -> Self {
        Self(base: .below(origin, value: value, minimum: minimum, reason: reason))
    }

    /// A value outside its range: `--port 70000 is not between 0 and 65535`.
    static func notBetween(_ origin: SettingOrigin, value: String, lower: String, upper: String, unit: String) -> Self {
        Self(base: .notBetween(origin, value: value, lower: lower, upper: upper, unit: unit))
    }

    /// A word that is none of the accepted ones: `--log-level loud is not trace, …, error or critical`.
    static func notOneOf(_ origin: SettingOrigin, value: String, choices: [String]) -> Self {
        Self(base: .notOneOf(origin, value: value, choices: choices))
    }

    /// Two settings given together that cannot be: `--memory and --postgres exclude each other`.
    static func excludeEachOther(_ first: SettingOrigin, _ second: SettingOrigin) -> Self {
        Self(base: .excludeEachOther(first, second))
    }

    /// One of two settings that need each other: `--tls-cert and --tls-key go together`.
    static func goTogether(_ first: SettingOrigin, _ second: SettingOrigin) -> Self {
        Self(base: .goTogether(first, second))
    }

    /// A cluster heartbeat and expiry that cannot work together (`values`
    /// says what they were).
    static func presenceTimings(heartbeat: SettingOrigin, expiry: SettingOrigin, values: String) -> Self {
        Self(base: .presenceTimings(heartbeat: heartbeat, expiry: expiry, values: values))
    }

    /// A configuration file that cannot be read.
    static func unreadableFile(_ path: String, reason: String) -> Self {
        Self(base: .unreadableFile(path: path, reason: reason))
    }

    /// A configuration file whose name ends in neither `.yaml`, `.yml` nor `.json`.
    static func unknownFormat(_ path: String) -> Self {
        Self(base: .unknownFormat(path: path))
    }

    /// A configuration file that is not YAML or JSON of the expected shape.
    static func malformedFile(_ path: String, reason: String) -> Self {
        Self(base: .malformedFile(path: path, reason: reason))
    }

    /// A key of the file written without a value (`tlsCert:` or `null`).
    static func noValue(_ path: String, key: String) -> Self {
        Self(base: .noValue(path: path, key: key))
    }

    /// Keys of the file that no setting has; `suggestions` maps some of
    /// them to the known key they may be a typo of.
    static func unknownKeys(_ path: String, _ keys: [String], suggestions: [String: String]) -> Self {
        Self(base: .unknownKeys(path: path, keys: keys.sorted(), suggestions: suggestions))
    }

    /// One line saying what is wrong, naming the setting and its value.
    var description: String {
        switch base {
        case .notConvertible(let origin, let value, let expected):
            "\(origin.naming(value)) is not \(expected)"
        case .atLeast(let origin, let value, let minimum, let reason):
            "\(origin.name) must be at least \(minimum), not \(value)" + (reason.map { ": \($0)" } ?? "")
        case .below(let origin, let value, let minimum, let reason):
            "\(origin.naming(value)) is below \(minimum)" + (reason.map { " (\($0))" } ?? "")
        case .notBetween(let origin, let value, let lower, let upper, let unit):
            "\(origin.naming(value)) is not between \(lower) and \(upper) \(unit)"
        case .notOneOf(let origin, let value, let choices):
            "\(origin.naming(value)) is not \(choices.dropLast().joined(separator: ", ")) or \(choices.last ?? "")"
        case .excludeEachOther(let first, let second):
            "\(first.name) and \(second.name) exclude each other"
        case .goTogether(let first, let second):
            "\(first.name) and \(second.name) go together: give both or neither"
        case .presenceTimings(let heartbeat, let expiry, let values):
            "\(heartbeat.name) must be at least 0.1 s and \(expiry.name) longer than it, at most 3600 s (\(values))"
        case .unreadableFile(let path, let reason):
            "cannot read the configuration file \(path): \(reason)"
        case .unknownFormat(let path):
            "the configuration file \(path) is neither YAML (.yaml, .yml) nor JSON (.json)"
        case .malformedFile(let path, let reason):
            "\(path): \(reason)"
        case .noValue(let path, let key):
            "\(path)'s \(key) has no value: give one, or leave the key out for its default"
        case .unknownKeys(let path, let keys, let suggestions):
            "\(path): unknown \(keys.count == 1 ? "key" : "keys") "
                + keys.map { key in suggestions[key].map { "\(key) (did you mean \($0)?)" } ?? key }.joined(separator: ", ")
                + "; docs/configuration.md lists every key"
        }
    }
}
