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
    /// Reads the entries after the published revision for a catch-up.
    ///
    /// A node away for longer than the journal keeps (paused, or cut off
    /// from the store, while others wrote and stored snapshots) finds the
    /// first of them dropped by retention: the kept entries start later.
    /// It then loads the newest snapshot (retention keeps every entry after
    /// it), rewinds the authority to it, and replays the entries after it.
    /// The revisions in between have no entry: they are published as one
    /// change from the published state to the snapshot's, found by diffing
    /// the two. Each subscription then gets one patch from its `base` to
    /// the new revision, as a slow consumer's coalesced patch does
    /// (docs/PROTOCOL.md: "a patch may cover several revisions"), and
    /// a `subscribe … since` one of the skipped revisions gets a snapshot,
    /// as any revision the history window does not hold.
    ///
    /// - Throws: ``JournalError`` when reading fails, or when the kept
    ///   entries still do not continue the published revision or the
    ///   snapshot (retention ran between the reads: the catch-up is tried
    ///   again); ``SyncEngineError`` when the snapshot does not decode as
    ///   the app's state (nothing of it applied).
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
