import Logging
import PostgresNIO
import StateSyncCore
import StateSyncJournal

/// Keeps `statesync_presence` equal to the committed journal's presence: the writer calls
/// ``record(_:store:node:on:logger:)`` in the entries' transaction, so a session's row
/// exists exactly while its `sessionJoined` is committed and its `sessionLeft` is not, and
/// a dead node's claim (``PostgresPresence``) finds every session to remove and no other.
/// A join's row belongs to the node that journaled it; a leave deletes it whichever node did.
enum PresenceRows {
    /// The net presence change of `entries`, in journal order: each named session's name when
    /// present at the end, else `nil`. Only server commands are parsed, never clients' dispatches.
    static func changes(in entries: [JournalEntry]) -> [String: String?] {
        var changes: [String: String?] = [:]
        for entry in entries where entry.actionID == nil {
            guard case .object(let object)? = try? JSONParser().parse(entry.action),
                  case .string(let command)? = object["command"],
                  command == "sessionJoined" || command == "sessionLeft",
                  case .object(let session)? = object["session"],
                  case .string(let id)? = session["id"], case .string(let name)? = session["name"]
            else { continue }   // another server command (serverStarted, an effect's follow-up)
            changes[id] = .some(command == "sessionJoined" ? name : nil)
        }
        return changes
    }

    /// Writes the presence change of `entries`: rows for sessions `node`
    /// joined, none for sessions that left.
    static func record(
        _ entries: [JournalEntry], store: String, node: String, on connection: TimedConnection, logger: Logger
    ) async throws {
        let changes = changes(in: entries)
        guard !changes.isEmpty else { return }
        let joined = changes.compactMap { id, name in name.map { (id, $0) } }.sorted { $0.0 < $1.0 }
        let left = changes.filter { $0.value == nil }.map(\.key).sorted()
        if !joined.isEmpty {
            try await connection.run("""
                INSERT INTO statesync_presence (store_id, session_id, node_id, name)
                SELECT \(store), s, \(node), n FROM unnest(\(joined.map(\.0)), \(joined.map(\.1))) AS u(s, n)
                ON CONFLICT (store_id, session_id)
                DO UPDATE SET node_id = EXCLUDED.node_id, name = EXCLUDED.name, adopted_at = NULL
                """, logger: logger)
        }
        if !left.isEmpty {
            try await connection.run(
                "DELETE FROM statesync_presence WHERE store_id = \(store) AND session_id = ANY(\(left))", logger: logger)
        }
    }
}
