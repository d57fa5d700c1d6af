public import StateSyncCore

/// Steps that bring the board's stored history of older app schema versions to today's
/// (``Board/schemaVersion``), as docs/versions.md walks through. They work on JSON (no old Swift
/// types) and are deterministic: the same history migrates to the same bytes on every node.
public enum BoardMigrations {
    /// Every step, oldest first: ``Board/migrations``.
    public static let all: SchemaMigrations = [fromVersion1]

    /// Version 1 to 2: every todo gains `"priority":"normal"`; `say` becomes
    /// `postMessage` with the same `text`.
    public static let fromVersion1 = SchemaMigration(from: 1) { state in
        guard var board = state.objectValue, case .array(let todos)? = board["todos"] else { return state }
        board["todos"] = .array(todos.map { todo in
            guard var fields = todo.objectValue, fields["priority"] == nil else { return todo }
            fields["priority"] = .string(TodoPriority.normal.rawValue)
            return .object(fields)
        })
        return .object(board)
    } action: { action in
        action["type"] == "say" ? action.replacingType(with: "postMessage") : action
    }
}
