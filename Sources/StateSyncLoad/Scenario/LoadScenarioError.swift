/// Why a ``LoadScenario`` cannot run as given.
public struct LoadScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Base: Equatable {
        case invalidValue(name: String, value: String, reason: String)
        case invalidAction(text: String, reason: String)
        case invalidPath(text: String, reason: String)
    }

    private let base: Base

    /// The setting `name` (as the command-line option is spelled) has a value it cannot have.
    public static func invalidValue(_ name: String, _ value: String, reason: String) -> Self {
        Self(base: .invalidValue(name: name, value: value, reason: reason))
    }

    /// The action template does not give a StateSync action.
    public static func invalidAction(_ text: String, reason: String) -> Self {
        Self(base: .invalidAction(text: text, reason: reason))
    }

    /// A path template does not give a JSON Pointer.
    public static func invalidPath(_ text: String, reason: String) -> Self {
        Self(base: .invalidPath(text: text, reason: reason))
    }

    /// A sentence naming the setting, its value and the problem.
    public var description: String {
        switch base {
        case let .invalidValue(name, value, reason): "--\(name) \(value): \(reason)"
        case let .invalidAction(text, reason): "action \(text): \(reason)"
        case let .invalidPath(text, reason): "path \"\(text)\" is not a JSON Pointer: \(reason)"
        }
    }
}
