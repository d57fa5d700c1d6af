/// A journaled command that does not have the journal form of
/// ``SessionCommandCoding``; its description says what is wrong
/// (`a "dispatch" command without an "action" object`).
package struct SessionCommandDecodingError: Error, Hashable, CustomStringConvertible {
    private enum Base: Hashable {
        case notJSON(JSONParseError)
        case noCommand(found: String)
        case unknownCommand(String)
        case noAction(command: String)
        case noSession(command: String)
        case invalidAction(command: String, Rejection)
    }

    private let base: Base

    /// The bytes are not one JSON value.
    package static func notJSON(_ error: JSONParseError) -> Self {
        Self(base: .notJSON(error))
    }

    /// The value is not an object with a string `command`; `value` is shown clipped.
    package static func noCommand(in value: JSONValue) -> Self {
        let text = JSONSerializer().string(for: value)
        return Self(base: .noCommand(found: text.count <= 200 ? text : text.prefix(200) + "…"))
    }

    /// The `command` names no known command.
    package static func unknownCommand(_ command: String) -> Self {
        Self(base: .unknownCommand(command.count <= 40 ? command : command.prefix(40) + "…"))
    }

    /// A `dispatch` or `system` command without an `action` object.
    package static func noAction(_ command: String) -> Self {
        Self(base: .noAction(command: command))
    }

    /// A command that needs a session lacks one with string `id` and `name`.
    package static func noSession(_ command: String) -> Self {
        Self(base: .noSession(command: command))
    }

    /// The app's ``WireAction/init(wireValue:)`` refused the journaled action.
    package static func invalidAction(_ command: String, _ rejection: Rejection) -> Self {
        Self(base: .invalidAction(command: command, rejection))
    }

    /// What is wrong, naming the offending value.
    package var description: String {
        switch base {
        case .notJSON(let error):
            "a journaled command is not JSON: \(error)"
        case .noCommand(let found):
            "no \"command\" string in \(found)"
        case .unknownCommand(let command):
            "unknown command \"\(command)\" (expected dispatch, system, sessionJoined, sessionLeft or serverStarted)"
        case .noAction(let command):
            "a \"\(command)\" command without an \"action\" object"
        case .noSession(let command):
            "a \"\(command)\" command without a \"session\" with string \"id\" and \"name\""
        case let .invalidAction(command, rejection):
            "the action of a \"\(command)\" command does not decode: \(rejection)"
        }
    }
}
