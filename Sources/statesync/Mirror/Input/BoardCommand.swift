import BoardApp
import StateSyncCore

/// A line typed on the `mirror` command line: an action to dispatch, `help` or `quit`
/// (the commands are listed in ``summary`` and docs/cli.md).
enum BoardCommand: Sendable, Equatable {
    /// Dispatch this action.
    case dispatch(JSONObject)
    /// Show the command summary.
    case help
    /// Leave the view.
    case quit
    /// An empty line: nothing to do.
    case nothing

    /// The one-line summary `help` shows.
    static let summary = "add TITLE · toggle ID · rename ID TITLE · rm ID · clear · inc NAME [N] · dec NAME [N] · reset NAME · prio ID low|normal|high · say TEXT · {json} · quit"

    /// Why a line is not a command.
    struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The sentence for the message line.
        let description: String
    }

    /// Reads `line`.
    init(parsing line: String) throws(ParseError) {
        let trimmed = String(line.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
        guard !trimmed.isEmpty else {
            self = .nothing
            return
        }
        if trimmed.first == "{" {
            do {
                self = .dispatch(try ActionArguments([trimmed]).action)
            } catch {
                throw ParseError(description: error.description)
            }
            return
        }
        let name = String(trimmed.prefix { $0 != " " })
        let rest = String(trimmed.dropFirst(name.count).drop { $0 == " " })
        let words = rest.split(separator: " ").map(String.init)
        switch name.lowercased() {
        case "help", "?": self = .help
        case "quit", "q", "exit": self = .quit
        case "add": self = .action(.addTodo(title: try Self.text(rest, for: "add TITLE")))
        case "toggle", "done": self = .action(.toggleTodo(id: try Self.todoID(words, usage: "toggle ID")))
        case "rm", "remove", "del": self = .action(.removeTodo(id: try Self.todoID(words, usage: "rm ID")))
        case "rename":
            let id = try Self.todoID(Array(words.prefix(1)), usage: "rename ID TITLE")
            let title = String(rest.dropFirst(words.first?.count ?? 0).drop { $0 == " " })
            self = .action(.renameTodo(id: id, title: try Self.text(title, for: "rename ID TITLE")))
        case "clear": self = .action(.clearCompleted)
        case "inc", "dec":
            let (counter, by) = try Self.counterAndAmount(words, usage: "\(name.lowercased()) NAME [N]")
            self = .action(.increment(counter: counter, by: name.lowercased() == "dec" ? -by : by))
        case "reset":
            guard words.count == 1 else { throw ParseError(description: "usage: reset NAME") }
            self = .action(.resetCounter(counter: words[0]))
        case "prio", "priority":
            let id = try Self.todoID(Array(words.prefix(1)), usage: "prio ID low|normal|high")
            guard words.count == 2, let priority = TodoPriority(rawValue: words[1].lowercased()) else {
                throw ParseError(description: "usage: prio ID low|normal|high")
            }
            self = .action(.setPriority(id: id, priority: priority))
        case "say": self = .action(.postMessage(text: try Self.text(rest, for: "say TEXT")))
        default:
            throw ParseError(description: "unknown command \"\(TerminalText.sanitize(name))\": type help")
        }
    }

    private static func action(_ action: BoardAction) -> Self {
        .dispatch(action.wireValue)
    }

    private static func text(_ text: String, for usage: String) throws(ParseError) -> String {
        guard !text.isEmpty else { throw ParseError(description: "usage: \(usage)") }
        return text
    }

    /// `t3` as given; a bare number `3` means `t3` (ids are `t` and a revision).
    private static func todoID(_ words: [String], usage: String) throws(ParseError) -> String {
        guard words.count == 1 else { throw ParseError(description: "usage: \(usage)") }
        let word = words[0]
        return word.allSatisfy(\.isASCII) && Int(word) != nil ? "t\(word)" : word
    }

    private static func counterAndAmount(_ words: [String], usage: String) throws(ParseError) -> (String, Int64) {
        guard (1...2).contains(words.count) else { throw ParseError(description: "usage: \(usage)") }
        guard words.count == 2 else { return (words[0], 1) }
        guard let amount = Int64(words[1]), amount != .min else {
            throw ParseError(description: "\"\(TerminalText.sanitize(words[1]))\" is not a whole number (usage: \(usage))")
        }
        return (words[0], amount)
    }
}
