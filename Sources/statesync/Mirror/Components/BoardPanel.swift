import BoardApp
import StateSyncClient

/// One independent component of the `mirror` view (a panel, or a plain line when stdout is
/// not a terminal), made from its slice alone so it is redrawn exactly when the slice changes.
/// Slices come from the optimistic mirror's prediction; pending marks from its confirmed state.
protocol BoardPanel: Sendable {
    /// The slice's type.
    associatedtype Slice: Equatable & Sendable

    /// Where the panel goes.
    static var id: PanelID { get }
    /// The part of the board it observes.
    static var slice: any KeyPath<OptimisticView<BoardState>, Slice> & Sendable { get }

    /// The component showing `slice`.
    init(_ slice: Slice)

    /// The panel's heading, e.g. `Todos (3)`.
    var title: String { get }
    /// The panel's body for `height` lines of `width` cells (the view cuts
    /// and pads each line to the width).
    func lines(width: Int, height: Int) -> [String]
    /// The one-line form, for plain output.
    var summary: String { get }
}

extension BoardPanel {
    /// `lines`, or the first `height - 1` of them and `… N more`.
    static func clipped(_ lines: [String], height: Int) -> [String] {
        guard lines.count > height else { return lines }
        guard height > 1 else { return Array(lines.prefix(height)) }
        return lines.prefix(height - 1) + ["… \(lines.count - height + 1) more"]
    }
}
