import StateSyncCore
import StateSyncJournal
import Synchronization

/// The rules themselves: each opens journals, uses them as an engine does,
/// and closes them.
extension JournalContractCase {
    static let appendedEntriesReadBackInOrder = JournalContractCase("appendedEntriesReadBackInOrder") { open in
        let journal = try await open(JournalRetention())
        try requireEqual(journal.lastRevision, 0, "a new journal's lastRevision")
        try await journal.append(JournalSamples.batch(1...3))
        try await journal.append(JournalSamples.batch(4...4))
        try requireEqual(journal.lastRevision, 4, "lastRevision after appending 1…4")
        try requireEqual(try await journal.entries(from: 1, through: 10), (1...4).map { JournalSamples.entry($0) }, "entries 1…10")
        try requireEqual(try await journal.entries(from: 2, through: 3), [JournalSamples.entry(2), JournalSamples.entry(3)], "entries 2…3")
        try requireEqual(try await journal.entries(from: 5, through: 9), [], "entries past the end")
        try await journal.close()
    }

    static let aJournalKnownEmptyIsEmptyUntilItsFirstWrite = JournalContractCase("aJournalKnownEmptyIsEmptyUntilItsFirstWrite") { open in
        let journal = try await open(JournalRetention())
        if journal.isKnownEmpty {
            try requireEqual(journal.lastRevision, 0, "the lastRevision of a journal known empty")
            try requireEqual(try await journal.latestSnapshot()?.revision, nil, "the snapshot of a journal known empty")
            try requireEqual(try await journal.outcomeClients(), [], "the clientIds of a journal known empty")
        }
        // A rejection alone: an outcome with no entry is a write too.
        try await journal.append(JournalBatch(rejections: [JournalRejection(clientID: "c-1", actionID: "a1", code: "x", message: "no")]))
        try require(!journal.isKnownEmpty, "a journal holding an outcome says it is known empty")
        let recovery = try await journal.recovery()
        try requireEqual(recovery.lastRevision, 0, "the recovery's lastRevision after a rejection alone")
        try requireEqual(try await journal.outcomeClients(), ["c-1"], "the clientIds after a rejection")
        try await journal.close()
    }

    static let gapsAreRefusedAndTheJournalStaysUsable = JournalContractCase("gapsAreRefusedAndTheJournalStaysUsable") { open in
        for revisions in [[4], [2], [3, 5], [3, 3], [1, 2, 3]] as [[UInt64]] {
            let journal = try await open(JournalRetention())
            try await journal.append(JournalSamples.batch(1...2))
            try await requireJournalError("appending \(revisions) after 2", matching: \.isRevisionGap) {
                try await journal.append(JournalBatch(entries: revisions.map { JournalSamples.entry($0) }))
            }
            try await journal.append(JournalSamples.batch(3...3))
            try requireEqual(journal.lastRevision, 3, "lastRevision after a refused \(revisions) and 3")
            try requireEqual(try await journal.entries(from: 1, through: 9).map(\.revision), [1, 2, 3], "revisions kept after \(revisions)")
            try await journal.close()
        }
    }

    static let outcomesRememberAcceptsAndRejectsAndKeepTheFirst =
        JournalContractCase("outcomesRememberAcceptsAndRejectsAndKeepTheFirst") { open in
            let journal = try await open(JournalRetention())
            let rejection = JournalRejection(clientID: "c-1", actionID: "a9", code: "not_found", message: "no todo t9")
            try await journal.append(JournalBatch(
                entries: [JournalSamples.entry(1, actionID: "a7", clientID: "c-1")], rejections: [rejection]))
            // A second outcome of a decided pair is ignored, or (a shared
            // journal, where it means another server decided it) its batch is refused.
            let again = JournalRejection(clientID: "c-1", actionID: "a7", code: "late", message: "second outcome")
            do {
                try await journal.append(JournalBatch(rejections: [again]))
            } catch let error as JournalError where error.isOutcomeConflict {}
            let system = JournalEntry(meta: Meta(revision: 2, time: JournalSamples.time), action: Array(#"{"type":"join"}"#.utf8))
            try await journal.append(JournalBatch(entries: [system]))

            try requireEqual(try await journal.outcome(clientID: "c-1", actionID: "a7"), .accepted(revision: 1), "the first outcome of (c-1, a7)")
            try requireEqual(
                try await journal.outcome(clientID: "c-1", actionID: "a9"), .rejected(code: "not_found", message: "no todo t9"),
                "the rejection of (c-1, a9)")
            try requireEqual(try await journal.outcome(clientID: "c-2", actionID: "a7"), nil, "the outcome of an unknown pair")
            try requireEqual(try await journal.entries(from: 2, through: 2), [system], "a system entry")
            try await journal.close()
        }

    static let outcomesLeaveOnlyByTheirOwnClientsTrimOrWhenTheClientIsForgotten =
        JournalContractCase("outcomesLeaveOnlyByTheirOwnClientsTrimOrWhenTheClientIsForgotten") { open in
            let journal = try await open(JournalRetention())
            try await journal.append(JournalBatch(entries: [JournalSamples.entry(1, actionID: "pay", clientID: "victim")]))
            // 300 outcomes of another client, then a trim of it to its last 5:
            // the victim's outcome stays, the other's oldest are gone.
            try await journal.append(JournalBatch(
                entries: (2...201).map { JournalSamples.entry($0, clientID: "junk") },
                rejections: (1...100).map { JournalRejection(clientID: "junk", actionID: "r\($0)", code: "invalid_action", message: "no") },
                outcomeTrims: ["junk": 5]))
            try requireEqual(try await journal.outcome(clientID: "victim", actionID: "pay"), .accepted(revision: 1), "the victim's outcome")
            try requireEqual(try await journal.outcome(clientID: "junk", actionID: "a2"), nil, "a trimmed accept")
            try requireEqual(try await journal.outcome(clientID: "junk", actionID: "r95"), nil, "a trimmed rejection")
            try requireEqual(
                try await journal.outcome(clientID: "junk", actionID: "r96"), .rejected(code: "invalid_action", message: "no"),
                "a kept rejection")
            try requireEqual(try await journal.outcome(clientID: "junk", actionID: "a201"), nil, "an accept older than the kept 5")
            try requireEqual(try await journal.outcomeClients(), ["victim", "junk"], "the clients, least recent first")

            // Forgetting happens before the batch's own outcomes are recorded;
            // a shared journal ignores it (one server's view of its clientIds).
            try await journal.append(JournalBatch(
                entries: [JournalSamples.entry(202, actionID: "again", clientID: "victim")], forgottenClients: ["victim"]))
            try requireEqual(
                try await journal.outcome(clientID: "victim", actionID: "pay"),
                journal is any SharedJournal ? .accepted(revision: 1) : nil, "the outcome of a client the batch forgot")
            try requireEqual(
                try await journal.outcome(clientID: "victim", actionID: "again"), .accepted(revision: 202),
                "the outcome in the batch that forgot its client")
            try requireEqual(try await journal.outcomeClients(), ["junk", "victim"], "the clients after forgetting")
            try await journal.close()
        }

    static let snapshotsOverTheKeptEntriesStayAndTheNearestIsFound =
        JournalContractCase("snapshotsOverTheKeptEntriesStayAndTheNearestIsFound") { open in
            let journal = try await open(JournalRetention(revisions: 15, olderSnapshots: 0))
            try requireEqual(try await journal.latestSnapshot(), nil, "a new journal's latest snapshot")
            try await journal.saveSnapshot(JournalSnapshot(revision: 0, state: Array("{}".utf8)))
            try await journal.append(JournalSamples.batch(1...30))
            for revision in [10, 20, 30] as [UInt64] {
                try await journal.saveSnapshot(JournalSnapshot(revision: revision, state: Array("{\"r\":\(revision)}".utf8)))
            }
            try requireEqual(try await journal.latestSnapshot()?.revision, 30, "the latest snapshot")
            try requireEqual(try await journal.snapshot(atOrBefore: 25)?.state, Array("{\"r\":20}".utf8), "the snapshot at or before 25")
            // The window reaches back to 15: the snapshot at 10 is its base, 0 is older and thinned away.
            try requireEqual(try await journal.snapshot(atOrBefore: 9), nil, "a snapshot older than the retention")
            try requireEqual(try await journal.snapshotRevisions(), [10, 20, 30], "the kept snapshots")
            try await requireJournalError("a snapshot past the last revision") {
                try await journal.saveSnapshot(JournalSnapshot(revision: 31, state: []))
            }
            try await journal.close()
        }

    static let oldestRevisionAndSnapshotRevisionsTellWhatTimeTravelCanRebuild =
        JournalContractCase("oldestRevisionAndSnapshotRevisionsTellWhatTimeTravelCanRebuild") { open in
            let journal = try await open(JournalRetention())
            try requireEqual(try await journal.oldestRevision(), nil, "a new journal's oldest revision")
            try requireEqual(try await journal.snapshotRevisions(), [], "a new journal's snapshots")
            try await journal.append(JournalSamples.batch(1...12))
            for revision in [8, 4, 12] as [UInt64] {
                try await journal.saveSnapshot(JournalSnapshot(revision: revision, state: Array("{}".utf8)))
            }
            try requireEqual(try await journal.oldestRevision(), 1, "the oldest revision")
            try requireEqual(try await journal.snapshotRevisions(), [4, 8, 12], "the snapshots, oldest first")
            try await journal.close()
            try await requireJournalError("snapshotRevisions after close") { _ = try await journal.snapshotRevisions() }
            try await requireJournalError("oldestRevision after close") { _ = try await journal.oldestRevision() }
        }

    static let recoveryStartsAtTheLatestSnapshotAndStreamsTheRest =
        JournalContractCase("recoveryStartsAtTheLatestSnapshotAndStreamsTheRest") { open in
            let journal = try await open(JournalRetention())
            try await journal.append(JournalSamples.batch(1...25))
            try await journal.saveSnapshot(JournalSnapshot(revision: 7, state: Array("7".utf8)))
            try await journal.append(JournalSamples.batch(26...40))
            let recovery = try await journal.recovery(pageSize: 4)
            try requireEqual(recovery.epoch, journal.epoch, "the recovery's epoch")
            try requireEqual(recovery.snapshot?.revision, 7, "the recovery's snapshot")
            try requireEqual(recovery.lastRevision, 40, "the recovery's last revision")
            try requireEqual(recovery.entries.count, 33, "the entries to replay")
            var replayed: [JournalEntry] = []
            for try await entry in recovery.entries { replayed.append(entry) }
            try requireEqual(replayed, (8...40).map { JournalSamples.entry($0) }, "the replayed entries")
            try await journal.close()
        }

    static let appendsWithoutWaitingAllCompleteInOrder = JournalContractCase("appendsWithoutWaitingAllCompleteInOrder") { open in
        let journal = try await open(JournalRetention())
        let count: UInt64 = 300
        let completed = Mutex<[UInt64]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // Like the sequencer: append batch after batch without waiting.
            for revision in 1...count {
                journal.append(JournalSamples.batch(revision...revision)) { result in
                    let finished = completed.withLock { completed in
                        if case .success = result { completed.append(revision) } else { completed.append(0) }
                        return completed.count == Int(count)
                    }
                    if finished { done.resume() }
                }
            }
        }
        try requireEqual(completed.withLock { $0 }, Array(1...count), "the completions (0 for a failure), in order")
        try requireEqual(journal.lastRevision, count, "lastRevision")
        try requireEqual(try await journal.entries(from: 1, through: count).map(\.revision), Array(1...count), "the stored revisions")
        try await journal.close()
    }

    static let aClosedJournalRefusesEverything = JournalContractCase("aClosedJournalRefusesEverything") { open in
        let journal = try await open(JournalRetention())
        try await journal.append(JournalSamples.batch(1...1))
        try await journal.close()
        try await journal.close()
        try await requireJournalError("append after close") { try await journal.append(JournalSamples.batch(2...2)) }
        try await requireJournalError("entries after close") { _ = try await journal.entries(from: 1, through: 1) }
        try await requireJournalError("outcome after close") { _ = try await journal.outcome(clientID: "c-1", actionID: "a1") }
    }
}
