/// The command line's text and what keys do to it.
struct LineEditor: Sendable {
    /// What the caller should do after a key.
    enum Outcome: Sendable, Hashable {
        /// Redraw the line.
        case edited
        /// Run this command (the line is cleared).
        case submit(String)
        /// Leave the view (Ctrl-C, or Ctrl-D on an empty line).
        case quit
        /// Nothing changed.
        case none
    }

    /// The text typed so far.
    private(set) var text = ""

    /// Applies `key`.
    mutating func apply(_ key: Key) -> Outcome {
        switch key {
        case .text(let typed):
            text += typed
            return .edited
        case .backspace:
            guard !text.isEmpty else { return .none }
            text.removeLast()
            return .edited
        case .clearLine:
            text = ""
            return .edited
        case .deleteWord:
            while text.last == " " { text.removeLast() }
            while let last = text.last, last != " " { text.removeLast() }
            return .edited
        case .enter:
            let line = text
            text = ""
            return .submit(line)
        case .interrupt:
            return .quit
        case .endOfInput:
            return text.isEmpty ? .quit : .none
        }
    }
}
