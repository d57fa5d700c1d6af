import BoardApp
import StateSyncClient

/// Named counters, by name: `hits   3`.
struct CountersPanel: BoardPanel {
    static let id = PanelID.counters
    static let slice: any KeyPath<OptimisticView<BoardState>, [String: Int64]> & Sendable = \.predicted.counters

    /// The counters sorted by name.
    let counters: [(name: String, value: Int64)]

    init(_ slice: [String: Int64]) {
        counters = slice.sorted { $0.key < $1.key }.map { (TerminalText.sanitize($0.key), $0.value) }
    }

    var title: String { Self.id.rawValue }

    func lines(width: Int, height: Int) -> [String] {
        guard !counters.isEmpty else { return ["none yet: type  inc hits"] }
        let values = counters.map { "\($0.value)" }
        let valueWidth = values.map(\.count).max() ?? 0
        let longestName = counters.map { TerminalText.width(of: $0.name) }.max() ?? 0
        let nameWidth = max(1, min(longestName, width - valueWidth - 2))
        return Self.clipped(zip(counters, values).map { counter, value in
            TerminalText.fit(counter.name, width: nameWidth) + "  "
                + String(repeating: " ", count: valueWidth - value.count) + value
        }, height: height)
    }

    var summary: String {
        guard !counters.isEmpty else { return "counters: (none)" }
        return "counters: " + counters.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
    }
}
