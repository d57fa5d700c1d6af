import BoardApp
import StateSyncClient

/// Who is connected, earliest first: `alice-laptop  since 09:58`.
struct PresencePanel: BoardPanel {
    static let id = PanelID.presence
    static let slice: any KeyPath<OptimisticView<BoardState>, [String: Presence]> & Sendable = \.predicted.presence

    /// The sessions, earliest first (then by name).
    let people: [Presence]

    init(_ slice: [String: Presence]) {
        people = slice.values.sorted { ($0.since, $0.name) < ($1.since, $1.name) }
    }

    var title: String { people.isEmpty ? "Presence" : "Presence (\(people.count))" }

    func lines(width: Int, height: Int) -> [String] {
        guard !people.isEmpty else { return ["nobody"] }
        let names = people.map { TerminalText.sanitize($0.name) }
        let nameWidth = min(names.map(TerminalText.width(of:)).max() ?? 0, max(1, width - 13))   // 13: "  since HH:MM"
        return Self.clipped(zip(people, names).map { person, name in
            TerminalText.fit(name, width: nameWidth) + "  since \(ChatPanel.clock(person.since))"
        }, height: height)
    }

    var summary: String {
        guard !people.isEmpty else { return "presence: (nobody)" }
        return "presence: " + people.map { TerminalText.sanitize($0.name) }.joined(separator: ", ")
    }
}
