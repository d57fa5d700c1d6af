/// Where each setting of a configuration came from, to name it in the
/// errors found after reading (a malformed `--restrict-read` entry, a bad
/// PostgreSQL URL) and in `--print-config`'s notes.
struct SettingOrigins: Sendable {
    private var byKey: [String: SettingOrigin] = [:]

    /// None recorded: every setting has its default.
    init() {}

    /// Where `setting`'s value came from: `.defaultValue` when nobody set it.
    subscript(name: SettingName) -> SettingOrigin {
        get { byKey[name.fileKey] ?? .defaultValue(flag: name.flag) }
        set { byKey[name.fileKey] = newValue }
    }

    /// Where `setting`'s value came from.
    subscript<Value>(setting: Setting<Value>) -> SettingOrigin {
        self[setting.name]
    }
}
