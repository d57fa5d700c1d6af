import StateSyncCore
import Foundation

/// The action each writer dispatches: a JSON object ``Template`` and the state path
/// it changes, from which the generator counts the expected deliveries. For `increment`
/// the path is derived (`/counters/<counter>`); otherwise give it, or `""` is assumed.
public struct ActionTemplate: Sendable, Hashable {
    /// The board app's `increment` of counter `hits`: a one-field change.
    public static let incrementHits = ActionTemplate(
        checked: Template(#"{"type":"increment","counter":"hits","by":1}"#), path: Template("/counters/hits"))

    /// The action's JSON text with placeholders.
    public let action: Template
    /// The JSON Pointer (with placeholders) of the part of the state it changes.
    public let path: Template

    private init(checked action: Template, path: Template) {
        self.action = action
        self.path = path
    }

    /// Checks that `text` gives a JSON object with a string `type` once its
    /// placeholders are filled in, and takes `path` (a JSON Pointer template)
    /// as what it changes, or derives it as described above.
    public init(_ text: String, path: String? = nil) throws(LoadScenarioError) {
        let template = Template(text)
        let sample = template.render(client: 0, random: 0, sequence: 1)
        let value: JSONValue
        do {
            value = try JSONValue(parsing: sample)
        } catch {
            throw .invalidAction(text, reason: "it is not JSON once placeholders are filled in (\(error))")
        }
        guard value["type"]?.stringValue != nil else {
            throw .invalidAction(text, reason: "it must be a JSON object with a string \"type\"")
        }
        let pathText = path ?? Self.derivedPath(text)
        try PathCheck.validate(Template(pathText))
        self.init(checked: template, path: Template(pathText))
    }

    /// `/counters/<counter>` for the board's `increment` (read from the
    /// template before its placeholders are filled, which works when they
    /// sit inside strings); otherwise the whole state.
    private static func derivedPath(_ text: String) -> String {
        guard let value = try? JSONValue(parsing: text),  // placeholders outside strings: no derivation
              value["type"]?.stringValue == "increment", let counter = value["counter"]?.stringValue
        else { return "" }
        return JSONPointer(tokens: ["counters", counter]).description
    }
}
