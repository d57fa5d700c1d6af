import Foundation
import Logging
import NIOCore
import PostgresNIO
import StateSyncCore
import StateSyncServer

/// The SQL of a ``PostgresJournal``'s group commit: one call of
/// `statesync_write_group` (``PostgresSchema/writeGroupFunction``) however
/// large the group, its rows sent as arrays.
///
/// postgres-nio encodes arrays without `NULL` elements, so optional ids are
/// sent as text plus a "present" flag and turned back into `NULL` in SQL.
enum PostgresStatements {
    /// What the group's statement came to.
    enum GroupWrite: Equatable {
        /// Everything is written (uncommitted until the caller's `COMMIT`).
        case written
        /// The head was not at the revision the group starts after: nothing
        /// was written.
        case refused
        /// `pairs` of the group's `(clientId, id)` pairs already had an
        /// outcome (decided by another node); the caller must roll back.
        case decidedElsewhere(pairs: Int)
    }

    /// Writes the group of `batches` (whose entries are `entries`, from the
    /// head `seen` to `head`) in the caller's transaction: the head's
    /// compare-and-set with its `NOTIFY`, the journal rows, the presence
    /// rows of `node` (``PresenceRows``) when given, and the outcomes.
    static func writeGroup(
        _ batches: [JournalBatch], entries: [JournalEntry], from seen: UInt64, to head: UInt64,
        store: String, node: String?, on connection: TimedConnection, logger: Logger
    ) async throws -> GroupWrite {
        let presence = node == nil ? [:] : PresenceRows.changes(in: entries)
        let joined = presence.compactMap { id, name in name.map { (id, $0) } }.sorted { $0.0 < $1.0 }
        let left = presence.filter { $0.value == nil }.map(\.key).sorted()
        let outcomes = OutcomeSegments(batches)
        let rows = try await connection.run("""
            SELECT statesync_write_group(
                \(store), \(Int64(seen)), \(Int64(head)),
                \(PostgresHeadWatcher.channel), \(PostgresHeadWatcher.payload(head: head, store: store)),
                \(entries.map { Int64($0.revision) }), \(entries.map { timeBits($0.meta.time) }),
                \(entries.map { $0.meta.clientID != nil }), \(entries.map { $0.meta.clientID ?? "" }),
                \(entries.map { $0.actionID != nil }), \(entries.map { $0.actionID ?? "" }),
                \(entries.map { ByteBuffer(bytes: $0.action) }),
                \(node), \(joined.map(\.0)), \(joined.map(\.1)), \(left),
                \(outcomes.forgottenEnds), \(outcomes.acceptedEnds), \(outcomes.rejectedEnds), \(outcomes.trimEnds),
                \(outcomes.forgotten),
                \(outcomes.accepted.map(\.client)), \(outcomes.accepted.map(\.action)), \(outcomes.accepted.map(\.revision)),
                \(outcomes.rejected.map(\.clientID)), \(outcomes.rejected.map(\.actionID)),
                \(outcomes.rejected.map(\.code)), \(outcomes.rejected.map(\.message)),
                \(outcomes.trims.map(\.client)), \(outcomes.trims.map(\.keep)))
            """, logger: logger)
        let decidedElsewhere = try rows.decode(Int32.self).first ?? 0
        switch decidedElsewhere {
        case 0: return .written
        case ..<0: return .refused
        default: return .decidedElsewhere(pairs: Int(decidedElsewhere))
        }
    }

    /// `time` as the bit pattern of its `timeIntervalSinceReferenceDate`
    /// (as ``SQLiteJournal`` stores it): a replay gets the same `Date` bit for bit.
    static func timeBits(_ time: Date) -> Int64 {
        Int64(bitPattern: time.timeIntervalSinceReferenceDate.bitPattern)
    }

    /// The `Date` whose bit pattern ``timeBits(_:)`` stored.
    static func time(fromBits bits: Int64) -> Date {
        Date(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(bitPattern: bits)))
    }
}
