/// Where each part of the `mirror` view goes: the status bar on row 1, the panels on rows
/// 2…n-2 (two columns, stacked when narrower), the message line on n-1, the command line on n.
struct Layout: Sendable, Hashable {
    /// The terminal size it was made for.
    let size: TerminalSize

    /// Terminals narrower than this stack the panels in one column.
    static let twoColumnWidth = 72

    /// The status bar's row.
    var statusRow: Int { 1 }
    /// The message line's row.
    var messageRow: Int { max(2, size.rows - 1) }
    /// The command line's row.
    var inputRow: Int { max(3, size.rows) }

    /// The cells of `panel` (empty when the terminal is too small for it).
    func rect(for panel: PanelID) -> Rect {
        let top = 2
        let height = max(0, size.rows - 3)
        if size.columns >= Self.twoColumnWidth {
            let leftWidth = size.columns * 3 / 5
            let right = Rect(row: top, column: leftWidth + 2, width: size.columns - leftWidth - 1, height: height)
            let left = Rect(row: top, column: 1, width: leftWidth, height: height)
            switch panel {
            case .todos: return left.upperHalf
            case .chat: return left.lowerHalf
            case .counters: return right.upperHalf
            case .presence: return right.lowerHalf
            }
        }
        let share = height / PanelID.allCases.count
        let index = PanelID.allCases.firstIndex(of: panel) ?? 0
        let extra = height - share * PanelID.allCases.count   // the first panel (todos) gets the rest
        let start = top + index * share + (index == 0 ? 0 : extra)
        return Rect(row: start, column: 1, width: size.columns, height: share + (index == 0 ? extra : 0))
    }
}

/// The four panels of the board view.
/// Each one's raw value is its title before it has anything to show.
enum PanelID: String, CaseIterable, Sendable, Hashable {
    /// The to-do list.
    case todos = "Todos"
    /// Named counters.
    case counters = "Counters"
    /// The chat, newest at the bottom.
    case chat = "Chat"
    /// Who is connected.
    case presence = "Presence"
}

/// A rectangle of character cells; rows and columns count from 1.
struct Rect: Sendable, Hashable {
    /// The top row.
    var row: Int
    /// The left column.
    var column: Int
    /// Columns.
    var width: Int
    /// Rows.
    var height: Int

    /// The top half (the larger one when the height is odd).
    var upperHalf: Rect {
        Rect(row: row, column: column, width: width, height: height - height / 2)
    }

    /// The bottom half.
    var lowerHalf: Rect {
        Rect(row: row + height - height / 2, column: column, width: width, height: height / 2)
    }
}
