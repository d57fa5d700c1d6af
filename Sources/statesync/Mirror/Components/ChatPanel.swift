import BoardApp
import StateSyncClient

/// The chat, newest at the bottom: `10:02 alice  hello`.
struct ChatPanel: BoardPanel {
    static let id = PanelID.chat
    static let slice: any KeyPath<OptimisticView<BoardState>, [ChatMessage]> & Sendable = \.predicted.chat

    let messages: [ChatMessage]

    init(_ slice: [ChatMessage]) {
        messages = slice
    }

    var title: String { Self.id.rawValue }

    func lines(width: Int, height: Int) -> [String] {
        guard !messages.isEmpty else { return ["quiet so far: type  say hello"] }
        // The newest that fit, oldest first.
        return messages.suffix(height).map { message in
            "\(Self.clock(message.at)) \(TerminalText.sanitize(message.from)): \(TerminalText.sanitize(message.text))"
        }
    }

    var summary: String {
        guard let newest = messages.last else { return "chat: (empty)" }
        return "chat: \(TerminalText.sanitize(newest.from)): \(TerminalText.sanitize(newest.text))"
    }

    /// `HH:MM` of an ISO 8601 time (`2026-11-21T10:02:00Z` → `10:02`, UTC).
    static func clock(_ time: String) -> String {
        let characters = Array(time)
        guard characters.count >= 16, characters[10] == "T" else { return TerminalText.sanitize(time) }
        return String(characters[11..<16])
    }
}
