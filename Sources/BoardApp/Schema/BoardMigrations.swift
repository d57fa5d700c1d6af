public import StateSyncCore

/// How the board's stored history of older app schema versions becomes
/// today's (``Board/schemaVersion``), one step per version: the worked
/// example of docs/versions.md.
///
/// Version 2 gave todos a ``TodoPriority`` (with the new action
/// `setPriority`) and renamed the chat action `say` to `postMessage`: a
/// version 1 todo becomes `normal`, and a `say` that version 1 journaled, or
/// that a version 1 client sends, is applied as `postMessage`.
///
/// The steps work on JSON, so they need none of version 1's Swift types,
/// and they are deterministic: the same stored history migrates to the same
/// bytes on every node and every run.
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
