/// The escape sequences (ECMA-48 and xterm's private modes) the `mirror`
/// view uses; every terminal emulator and tmux understands them.
enum ANSI {
    /// The alternate screen: the shell's scrollback is left untouched.
    static let enterAlternateScreen = "\u{1B}[?1049h"
    /// Back to the normal screen, as it was before.
    static let leaveAlternateScreen = "\u{1B}[?1049l"
    /// Clears the whole screen.
    static let clearScreen = "\u{1B}[2J"
    /// Hides the cursor (while drawing).
    static let hideCursor = "\u{1B}[?25l"
    /// Shows the cursor.
    static let showCursor = "\u{1B}[?25h"
    /// Plain text again.
    static let resetStyle = "\u{1B}[0m"
    /// Bold.
    static let bold = "\u{1B}[1m"
    /// Dim (secondary text).
    static let dim = "\u{1B}[2m"
    /// Reverse video (the status bar).
    static let reverse = "\u{1B}[7m"
    /// Green text.
    static let green = "\u{1B}[32m"
    /// Red text.
    static let red = "\u{1B}[31m"
    /// Yellow text.
    static let yellow = "\u{1B}[33m"

    /// Moves the cursor to `row`, `column` (both from 1).
    static func moveTo(row: Int, column: Int) -> String {
        "\u{1B}[\(row);\(column)H"
    }
}
