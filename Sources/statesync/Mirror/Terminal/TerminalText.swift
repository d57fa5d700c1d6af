/// Text as the terminal shows it: control characters made harmless, and
/// widths counted in cells (East Asian wide characters and emoji take two,
/// combining marks none), so columns line up.
enum TerminalText {
    /// `text` with every control character (C0, DEL, C1: escape sequences,
    /// newlines, tabs) replaced by `�`, so shared state typed by others
    /// cannot move the cursor or change the terminal.
    static func sanitize(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(isControl(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(scalars)
    }

    /// `text` cut or padded with spaces to exactly `width` cells; a cut
    /// ends in `…`.
    static func fit(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        let total = self.width(of: text)
        let limit = total > width ? width - 1 : width   // room for the ellipsis
        for character in text {
            let cells = self.width(of: character)
            if used + cells > limit { break }
            result.append(character)
            used += cells
        }
        if total > width {
            result.append("…")
            used += 1
        }
        return result + String(repeating: " ", count: max(0, width - used))
    }

    /// The last `width` cells' worth of `text` (an input line scrolled so
    /// that its end shows).
    static func tail(_ text: String, width: Int) -> String {
        var result: [Character] = []
        var used = 0
        for character in text.reversed() {
            let cells = self.width(of: character)
            if used + cells > width { break }
            result.append(character)
            used += cells
        }
        return String(result.reversed())
    }

    /// The cells `text` takes.
    static func width(of text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// The cells one character takes: its first scalar decides, except
    /// that an emoji presentation selector makes it two.
    static func width(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.contains("\u{FE0F}") { return 2 }
        return width(of: first)
    }

    private static func width(of scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
