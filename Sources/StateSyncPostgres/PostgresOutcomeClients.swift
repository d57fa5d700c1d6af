import Logging
import PostgresNIO
import StateSyncCore
import StateSyncJournal

/// Which clientIds' outcomes a store keeps in PostgreSQL, decided in each group commit's
/// transaction from the shared tables, never from one node's view, with
/// ``OutcomeRetention``'s numbers. `statesync_outcome_clients` holds each clientId's last
/// use by PostgreSQL's clock; when a new clientId puts the store over
/// ``OutcomeRetention/maxClients``, the least recently used ones idle past
/// ``OutcomeRetention/window`` are forgotten, down to that number. ``JournalBatch/forgottenClients``
/// are ignored; ``JournalBatch/outcomeTrims`` apply whichever node recorded the outcomes.
enum PostgresOutcomeClients {
    /// Applies the rule after `batches` recorded their outcomes, in their transaction.
    static func retain(
        _ batches: [JournalBatch], retention: OutcomeRetention, store: String, on connection: TimedConnection, logger: Logger
    ) async throws {
        var clients: Set<String> = []
        for batch in batches {
            for entry in batch.entries where entry.actionID != nil {
                if let client = entry.meta.clientID { clients.insert(client) }
            }
            for rejection in batch.rejections { clients.insert(rejection.clientID) }
        }
        if try await used(clients, store: store, on: connection, logger: logger) {
            try await forgetBeyondBound(retention, store: store, on: connection, logger: logger)
        }
        for batch in batches {
            try await trim(batch.outcomeTrims, store: store, on: connection, logger: logger)
        }
    }

    /// Records that `clients` were used now; returns whether one of them is new to the store.
    private static func used(_ clients: Set<String>, store: String, on connection: TimedConnection, logger: Logger) async throws -> Bool {
        guard !clients.isEmpty else { return false }
        // `xmax = 0` holds only for a row the statement inserted (an updated
        // row carries the updating transaction's id): PostgreSQL's known way
        // to tell an upsert's inserts from its updates.
        return try await connection.run("""
            INSERT INTO statesync_outcome_clients (store_id, client_id, last_used)
            SELECT \(store), c, now() FROM unnest(\(clients.sorted())) AS u(c)
            ON CONFLICT (store_id, client_id) DO UPDATE SET last_used = EXCLUDED.last_used
            RETURNING xmax = 0
            """, logger: logger).decode(Bool.self).contains(true)
    }

    /// Forgets the least recently used clientIds unused for the window, down to ``OutcomeRetention/maxClients``.
    private static func forgetBeyondBound(
        _ retention: OutcomeRetention, store: String, on connection: TimedConnection, logger: Logger
    ) async throws {
        let window = retention.window.inSeconds
        try await connection.run("""
            WITH quiet AS (
                SELECT client_id FROM statesync_outcome_clients
                 WHERE store_id = \(store) AND last_used < now() - make_interval(secs => \(window))
                 ORDER BY last_used, client_id
                 LIMIT greatest(0, (SELECT count(*) FROM statesync_outcome_clients WHERE store_id = \(store)) - \(Int64(retention.maxClients)))
            ), forgotten AS (
                DELETE FROM statesync_outcome_clients AS k USING quiet
                 WHERE k.store_id = \(store) AND k.client_id = quiet.client_id RETURNING k.client_id
            )
            DELETE FROM statesync_outcomes AS o USING forgotten WHERE o.store_id = \(store) AND o.client_id = forgotten.client_id
            """, logger: logger)
    }

    /// Keeps only the `keep` most recent outcomes of each clientId of `trims`.
    private static func trim(_ trims: [String: Int], store: String, on connection: TimedConnection, logger: Logger) async throws {
        for (client, keep) in trims.sorted(by: { $0.key < $1.key }) {
            try await connection.run("""
                DELETE FROM statesync_outcomes WHERE store_id = \(store) AND client_id = \(client) AND seq <=
                    (SELECT seq FROM statesync_outcomes WHERE store_id = \(store) AND client_id = \(client)
                      ORDER BY seq DESC LIMIT 1 OFFSET \(max(1, keep)))
                """, logger: logger)
        }
    }
}
