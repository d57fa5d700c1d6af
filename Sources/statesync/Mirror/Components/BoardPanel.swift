import BoardApp
import StateSyncClient

/// One independent component of the `mirror` view: it observes one slice of
/// the board and shows it, either as a panel of the full-screen view or as
/// one plain line (`todos: [ ] t3 Milk`) when stdout is not a terminal.
///
/// A component is a value made from its slice alone, so the view redraws a
/// panel exactly when its slice changed and never consults the rest of the state.
/// Slices are read from the optimistic mirror's view: the prediction (with
/// this terminal's own actions applied at once) and, where a panel marks
/// what is still pending, the confirmed state.
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
