/// The formats of `statesync serve --config`, told apart by the file's
/// name: YAML (`.yaml`, `.yml`), which allows comments, and JSON (`.json`).
/// `--print-config` answers in the file's format, YAML without one.
enum ConfigurationFormat: Sendable, Equatable {
    /// YAML 1.1, read by Yams (swift-configuration's `YAMLSnapshot`).
    case yaml
    /// JSON (swift-configuration's `JSONSnapshot`).
    case json

    /// The format of the file at `path`; `nil` for another extension.
    init?(path: String) {
        let name = path.lowercased()
        if name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
            self = .yaml
        } else if name.hasSuffix(".json") {
            self = .json
        } else {
            return nil
        }
    }
}
