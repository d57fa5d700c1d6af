import Configuration

/// Reads `serve`'s settings from swift-configuration providers, highest precedence first (flags,
/// `STATESYNC_*` variables, the file). It asks them itself, not through a `ConfigReader`, so that
/// a wrongly typed value is refused and every value keeps its ``SettingOrigin``.
struct SettingsReader {
    /// One source of settings and what it calls them.
    private struct Layer {
        let provider: any ConfigSnapshot
        /// The key the provider is asked for.
        let key: @Sendable (SettingName) -> AbsoluteConfigKey
        /// What the user called the setting there.
        let origin: @Sendable (SettingName) -> SettingOrigin
        /// The value as the user wrote it, to quote in errors.
        let written: @Sendable (SettingName) -> String?
    }

    private let layers: [Layer]
    /// Where each setting read so far came from.
    private(set) var origins = SettingOrigins()

    /// A reader of `flags`, then `environment` (variables with an empty
    /// value count as unset), then `file`.
    init(flags: FlagValues, environment: [String: String], file: ConfigurationFile?) {
        let variables = environment.filter { !$0.value.isEmpty }
        var layers = [
            Layer(provider: InMemoryProvider(name: "flags", values: flags.values).snapshot(),
                  key: \.key, origin: { .flag($0.flag) }, written: { _ in nil }),
            Layer(provider: EnvironmentVariablesProvider(environmentVariables: variables).snapshot(),
                  key: \.environmentKey, origin: { .environment($0.environmentVariable) },
                  written: { variables[$0.environmentVariable] }),
        ]
        if let file {
            layers.append(Layer(provider: file.snapshot, key: \.key, origin: { .file(key: $0.fileKey, path: file.path) },
                                written: { file.writtenValues[$0.fileKey] }))
        }
        self.layers = layers
    }

    /// The value of `setting` from the first source that has it, or `nil`.
    ///
    /// - Throws: ``ConfigurationError`` when that value is not of the setting's type.
    mutating func given<Value>(_ setting: Setting<Value>) throws(ConfigurationError) -> Given<Value>? {
        for layer in layers {
            let origin = layer.origin(setting.name)
            let content: ConfigContent?
            do {
                content = try layer.provider.value(forKey: layer.key(setting.name), type: Value.configType).value?.content
            } catch {
                throw .notConvertible(origin, value: layer.written(setting.name) ?? "?", expected: Value.expected)
            }
            guard let content else { continue }
            guard let value = Value(content) else {
                throw .notConvertible(origin, value: layer.written(setting.name) ?? "?", expected: Value.expected)
            }
            origins[setting.name] = origin
            return Given(value: value, origin: origin)
        }
        return nil
    }

    /// Sets `value` to `setting`'s when one is given, after checking it against `rules`.
    mutating func read<Value>(_ setting: Setting<Value>, into value: inout Value, _ rules: SettingRule<Value>...) throws(ConfigurationError) {
        guard let given = try given(setting) else { return }
        for rule in rules {
            if let error = rule.check(given) { throw error }
        }
        value = given.value
    }

    /// Sets the optional `value` to `setting`'s when one is given.
    mutating func read<Value>(_ setting: Setting<Value>, into value: inout Value?) throws(ConfigurationError) {
        if let given = try given(setting) { value = given.value }
    }

    /// `value` with where it came from: what ``given(_:)`` found for `setting`, else its default.
    func given<Value>(_ setting: Setting<Value>, value: Value) -> Given<Value> {
        Given(value: value, origin: origins[setting])
    }
}
