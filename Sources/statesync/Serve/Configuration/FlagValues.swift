import Configuration

/// The settings given on `serve`'s command line, under their keys: the first source
/// ``SettingsReader`` asks, so flags win. Options left out are absent, not their defaults.
struct FlagValues: Sendable {
    /// The values given, as swift-configuration's in-memory provider holds them.
    private(set) var values: [AbsoluteConfigKey: ConfigValue] = [:]

    /// An empty set: no flag given.
    init() {}

    /// Sets `setting` to `value` when the option was given (is not `nil`).
    mutating func set<Value>(_ setting: Setting<Value>, _ value: Value?) {
        guard let value else { return }
        values[setting.key] = ConfigValue(value.content, isSecret: setting.name.isSecret)
    }

    /// Sets `setting` when the flag was given: a flag can only turn a setting on.
    mutating func set(_ setting: Setting<Bool>, given: Bool) {
        set(setting, given ? true : nil)
    }

    /// Sets `setting` to the repeated option's `values` when there is one at least.
    mutating func set(_ setting: Setting<[String]>, _ values: [String]) {
        set(setting, values.isEmpty ? nil : values)
    }
}
