import BoardApp
import StateSyncClient
import StateSyncCore

/// Connects the components to one optimistic mirror of the board: each
/// observes its own slice, and is rebuilt and shown only when that slice changes.
enum BoardFeeds {
    /// The components of the view.
    static let panels: [any BoardPanel.Type] = [TodosPanel.self, CountersPanel.self, ChatPanel.self, PresencePanel.self]

    /// Calls `show` with each component now and whenever its slice changes,
    /// until the task is cancelled.
    static func run(_ board: OptimisticMirror<Board>, show: @escaping @Sendable (any BoardPanel) async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            for panel in panels {
                group.addTask { await feed(panel, from: board, show: show) }
            }
        }
    }

    private static func feed<Panel: BoardPanel>(
        _ panel: Panel.Type, from board: OptimisticMirror<Board>, show: @Sendable (any BoardPanel) async -> Void
    ) async {
        for await slice in board.observeView(Panel.slice) {
            await show(Panel(slice))
        }
    }
}
