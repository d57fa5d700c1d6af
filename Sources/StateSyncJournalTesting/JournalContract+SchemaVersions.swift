import StateSyncJournal

/// The rule of versioned state: a journal keeps the app schema version each
/// entry and snapshot was written with, through reads and recovery.
extension JournalContractCase {
    static let entriesAndSnapshotsKeepTheirSchemaVersion =
        JournalContractCase("entriesAndSnapshotsKeepTheirSchemaVersion") { open in
            let journal = try await open(JournalRetention())
            // Versions 1 and 2 interleaved, as after an upgrade: 1…3 written by version 1, 4…6 by version 2.
            let entries = (1...6).map { revision in
                var entry = JournalSamples.entry(UInt64(revision))
                entry.schemaVersion = revision <= 3 ? 1 : 2
                return entry
            }
            try await journal.append(JournalBatch(entries: Array(entries[0..<3])))
            try await journal.saveSnapshot(JournalSnapshot(revision: 3, state: Array("3".utf8), schemaVersion: 1))
            try await journal.append(JournalBatch(entries: Array(entries[3...])))
            try await journal.saveSnapshot(JournalSnapshot(revision: 5, state: Array("5".utf8), schemaVersion: 2))
            try requireEqual(try await journal.entries(from: 1, through: 6).map(\.schemaVersion), [1, 1, 1, 2, 2, 2], "the entries' versions")
            try requireEqual(try await journal.snapshot(atOrBefore: 4)?.schemaVersion, 1, "the version of the snapshot at 3")
            try requireEqual(try await journal.latestSnapshot()?.schemaVersion, 2, "the version of the latest snapshot")
            // The same snapshot written again by a newer version takes its version.
            try await journal.saveSnapshot(JournalSnapshot(revision: 5, state: Array("5".utf8), schemaVersion: 3))
            let recovery = try await journal.recovery(pageSize: 2)
            try requireEqual(recovery.snapshot?.schemaVersion, 3, "the recovery's snapshot's version")
            var replayed: [JournalEntry] = []
            for try await entry in recovery.entries { replayed.append(entry) }
            try requireEqual(replayed, [entries[5]], "the replayed entry, with its version")
            try await journal.close()
        }
}
