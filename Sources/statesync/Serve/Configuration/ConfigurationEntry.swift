import Configuration

/// One setting and its effective value, as `--print-config` shows it: a
/// secret masked, an unset optional one absent.
struct ConfigurationEntry: Sendable {
    /// The setting.
    let name: SettingName
    /// Its value, masked when secret; `nil` when it is not set.
    let printed: ConfigContent?

    /// The entry of `setting` holding `value`.
    init<Value>(_ setting: Setting<Value>, _ value: Value?) {
        name = setting.name
        printed = value.map { (setting.mask?($0) ?? $0).content }
    }
}
