/// Just enough of a terminal to check what the `mirror` view draws: cursor
/// moves (`ESC [ row ; column H`), clear screen (`ESC [ 2 J`) and text;
/// other sequences (colours, cursor visibility) are skipped. It also
/// records which cells each write touched.
struct VirtualTerminal {
    /// The cells, row by row.
    private(set) var cells: [[Character]]
    /// The (row, column) cells written by the last ``apply(_:)``, from 1.
    private(set) var touched: Set<[Int]> = []

    /// A blank terminal.
    init(rows: Int, columns: Int) {
        cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    /// Row `row` (from 1) as text, trailing spaces removed.
    func line(_ row: Int) -> String {
        var text = String(cells[row - 1])
        while text.last == " " { text.removeLast() }
        return text
    }

    /// Every row, joined with newlines.
    var screen: String {
        (1...cells.count).map(line).joined(separator: "\n")
    }

    /// Interprets `output`.
    mutating func apply(_ output: String) {
        touched = []
        var row = 1
        var column = 1
        var characters = output[...]
        while let character = characters.first {
            characters = characters.dropFirst()
            guard character == "\u{1B}" else {
                if row <= cells.count, column <= cells[0].count {
                    cells[row - 1][column - 1] = character
                    touched.insert([row, column])
                }
                column += 1
                continue
            }
            guard characters.first == "[" else { continue }
            characters = characters.dropFirst()
            let parameters = characters.prefix { !$0.isLetter }
            characters = characters.dropFirst(parameters.count)
            guard let final = characters.first else { return }
            characters = characters.dropFirst()
            if final == "H" {
                let numbers = parameters.split(separator: ";").compactMap { Int($0) }
                row = numbers.first ?? 1
                column = numbers.dropFirst().first ?? 1
            } else if final == "J", parameters == "2" {
                for index in cells.indices { cells[index] = Array(repeating: " ", count: cells[index].count) }
            }
        }
    }
}
