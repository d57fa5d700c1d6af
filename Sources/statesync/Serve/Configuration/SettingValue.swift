import Configuration

/// A type a ``Setting`` can hold: one of swift-configuration's value types.
protocol SettingValue: Sendable, Equatable, CustomStringConvertible {
    /// The type the providers are asked for.
    static var configType: ConfigType { get }
    /// What a value of this type is, for errors: `an integer`.
    static var expected: String { get }
    /// The value of `content`, or `nil` when it holds another type.
    init?(_ content: ConfigContent)
    /// The value as swift-configuration holds it.
    var content: ConfigContent { get }
}

extension Int: SettingValue {
    static var configType: ConfigType { .int }
    static var expected: String { "an integer" }
    init?(_ content: ConfigContent) {
        guard case .int(let value) = content else { return nil }
        self = value
    }
    var content: ConfigContent { .int(self) }
}

extension Double: SettingValue {
    static var configType: ConfigType { .double }
    static var expected: String { "a number" }
    init?(_ content: ConfigContent) {
        guard case .double(let value) = content else { return nil }
        self = value
    }
    var content: ConfigContent { .double(self) }
}

extension Bool: SettingValue {
    static var configType: ConfigType { .bool }
    static var expected: String { "true or false" }
    init?(_ content: ConfigContent) {
        guard case .bool(let value) = content else { return nil }
        self = value
    }
    var content: ConfigContent { .bool(self) }
}

extension String: SettingValue {
    static var configType: ConfigType { .string }
    static var expected: String { "a string" }
    init?(_ content: ConfigContent) {
        guard case .string(let value) = content else { return nil }
        self = value
    }
    var content: ConfigContent { .string(self) }
}

extension Array: SettingValue where Element == String {
    static var configType: ConfigType { .stringArray }
    static var expected: String { "a list of strings" }
    init?(_ content: ConfigContent) {
        guard case .stringArray(let value) = content else { return nil }
        self = value
    }
    var content: ConfigContent { .stringArray(self) }
}
