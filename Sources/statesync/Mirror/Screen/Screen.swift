/// The full-screen `mirror` view: redraws only the part that changed (everything on a
/// resize), writing each change in one piece that ends with the cursor on the command line.
actor Screen {
    private var layout: Layout
    private var panels: [PanelID: any BoardPanel] = [:]
    private var status: StatusBar
    private var message = Message(text: "type help for the commands, quit or Ctrl-C to leave", kind: .info)
    private var input = ""
    private let write: @Sendable (String) -> Void

    /// A view of `size` for the server at `url`, drawing with `write`.
    init(size: TerminalSize, url: String, write: @escaping @Sendable (String) -> Void) {
        layout = Layout(size: size)
        status = StatusBar(url: url)
        self.write = write
    }

    /// Shows `panel` in its place.
    func show(_ panel: any BoardPanel) {
        panels[type(of: panel).id] = panel
        output(drawing(panel: type(of: panel).id))
    }

    /// Updates the status bar.
    func setStatus(_ update: (inout StatusBar) -> Void) {
        let before = status
        update(&status)
        guard status != before else { return }
        output(drawingStatus())
    }

    /// Shows `message` on the message line.
    func setMessage(_ message: Message) {
        self.message = message
        output(drawingMessage())
    }

    /// Shows `text` on the command line.
    func setInput(_ text: String) {
        input = text
        output(drawingInput())
    }

    /// Adopts a new terminal size and redraws everything.
    func resize(to size: TerminalSize) {
        layout = Layout(size: size)
        redrawAll()
    }

    /// Clears the screen and draws every part.
    func redrawAll() {
        var text = ANSI.clearScreen
        text += drawingStatus()
        for id in PanelID.allCases { text += drawing(panel: id) }
        text += drawingMessage()
        output(text)
    }

    private func output(_ text: String) {
        write(ANSI.hideCursor + text + drawingInput() + ANSI.showCursor)
    }

    private func drawingStatus() -> String {
        ANSI.moveTo(row: layout.statusRow, column: 1) + ANSI.reverse + status.color
            + TerminalText.fit(" " + status.text, width: layout.size.columns) + ANSI.resetStyle
    }

    private func drawingMessage() -> String {
        ANSI.moveTo(row: layout.messageRow, column: 1) + message.kind.color
            + TerminalText.fit(TerminalText.sanitize(message.text), width: layout.size.columns) + ANSI.resetStyle
    }

    /// The command line, leaving the cursor after the text.
    private func drawingInput() -> String {
        let prompt = "> "
        let visible = TerminalText.tail(input, width: max(0, layout.size.columns - prompt.count - 1))
        return ANSI.moveTo(row: layout.inputRow, column: 1)
            + TerminalText.fit(prompt + visible, width: layout.size.columns)
            + ANSI.moveTo(row: layout.inputRow, column: prompt.count + TerminalText.width(of: visible) + 1)
    }

    /// The panel `id` in its rectangle: a heading, then its lines padded to the width.
    private func drawing(panel id: PanelID) -> String {
        let rect = layout.rect(for: id)
        guard rect.height > 0, rect.width > 0 else { return "" }
        let panel = panels[id]
        let title = panel?.title ?? id.rawValue
        let heading = "── \(title) " + String(repeating: "─", count: max(0, rect.width - TerminalText.width(of: title) - 4))
        let body = panel?.lines(width: rect.width - 1, height: rect.height - 1) ?? ["waiting for the server…"]
        var text = ANSI.moveTo(row: rect.row, column: rect.column) + ANSI.bold + TerminalText.fit(heading, width: rect.width) + ANSI.resetStyle
        for index in 0..<(rect.height - 1) {
            let line = index < body.count ? " " + body[index] : ""
            text += ANSI.moveTo(row: rect.row + 1 + index, column: rect.column) + TerminalText.fit(line, width: rect.width)
        }
        return text
    }
}
