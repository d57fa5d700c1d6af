import Logging
import StateSyncCore
import StateSyncJournal

/// What a catch-up read past the published revision
/// (``Sequencer/readMissedEntries()``).
struct MissedEntries {
    /// The entries to replay, in order, continuing the authority's revision.
    var entries: [JournalEntry]
    /// Revisions between the published one and a snapshot loaded in place
    /// of their entries; 0 when every entry was still kept.
    var skipped = 0
    /// The change the snapshot made to the state (all of it); `nil` when
    /// none was loaded.
    var loaded: MirrorDelta?

    /// Whether there is nothing to publish.
    var isEmpty: Bool { entries.isEmpty && skipped == 0 }

    /// The batch that publishes the snapshot's jump, before the entries are
    /// replayed into it: the skipped revisions, and a change the fan-out
    /// must find by diffing (it may be anywhere).
    var batch: PendingBatch {
        var batch = PendingBatch()
        batch.skippedRevisions = skipped
        if let loaded { batch.change = loaded }
        return batch
    }
}

extension Sequencer {
    /// Reads the entries after the published revision for a catch-up; when
    /// retention dropped some, loads the newest snapshot and publishes the gap as
    /// one diffed change (docs/PROTOCOL.md: "a patch may cover several revisions").
    func readMissedEntries() async throws -> MissedEntries {
        let published = publication.revision
        let entries = try await journal.entries(from: published + 1, through: UInt64(Int64.max))
        guard let first = entries.first, first.revision != published + 1 else { return MissedEntries(entries: entries) }
        guard let snapshot = try await journal.latestSnapshot(), snapshot.revision > published else {
            throw JournalError.missingEntry(published + 1, lastRevision: entries.last?.revision ?? first.revision)
        }
        let after = try await journal.entries(from: snapshot.revision + 1, through: UInt64(Int64.max))
        if let next = after.first, next.revision != snapshot.revision + 1 {
            throw JournalError.missingEntry(snapshot.revision + 1, lastRevision: after.last?.revision ?? next.revision)
        }
        guard snapshot.schemaVersion <= App.schemaVersion else {
            throw NewerSchemaMet(version: snapshot.schemaVersion, revision: snapshot.revision)
        }
        // Migrated when older: a snapshot another node wrote before it was upgraded.
        try authority.rewind(to: try RecoveredState<App>.parse(snapshot), revision: snapshot.revision)
        logger.warning("the entries this node missed are no longer kept; loaded the store's newest snapshot", metadata: [
            "rev": "\(published)", "oldestKept": "\(first.revision)", "snapshot": "\(snapshot.revision)"])
        return MissedEntries(
            entries: after, skipped: Int(snapshot.revision - published), loaded: .whole(authority.mirror.json))
    }
}
