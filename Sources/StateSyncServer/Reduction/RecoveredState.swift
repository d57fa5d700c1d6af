import StateSyncCore
import StateSyncJournal
import StateSyncProtocol

/// The state rebuilt from a journal at startup: the last snapshot plus the
/// entries after it, reduced with their recorded ``Meta``.
struct RecoveredState<App: StateSyncApp> {
    var state: App.State
    var mirror: StateMirror<App>
    var revision: UInt64
    var snapshotRevision: UInt64
    var epoch: String

    /// Restores `journal`'s state through `App.reducer`.
    ///
    /// - Throws: ``SyncEngineError`` when the snapshot or an entry does not
    ///   decode or an entry is rejected; ``JournalError`` when reading fails.
    static func restore(from journal: any Journal) async throws -> RecoveredState {
        let recovery = try await journal.recovery()
        var state = App.initialState
        var revision: UInt64 = 0
        if let snapshot = recovery.snapshot {
            state = try decode(snapshot)
            revision = snapshot.revision
        }
        for try await entry in recovery.entries {
            try apply(entry, to: &state)
            revision = entry.revision
        }
        return RecoveredState(
            state: state,
            mirror: try StateMirror<App>(state),
            revision: revision,
            snapshotRevision: recovery.snapshot?.revision ?? 0,
            epoch: recovery.epoch
        )
    }

    /// The state a snapshot holds.
    ///
    /// - Throws: ``SyncEngineError`` when it does not decode as `App.State`.
    static func decode(_ snapshot: JournalSnapshot) throws(SyncEngineError) -> App.State {
        do {
            return try JSONValueDecoder().decode(App.State.self, from: try JSONParser().parse(snapshot.state))
        } catch {
            throw SyncEngineError.undecodableSnapshot(revision: snapshot.revision, reason: "\(error)")
        }
    }

    /// Replays one journaled command through `App.reducer` with its recorded
    /// ``Meta``; returns the reducer's ``Footprint`` (for a ``StateMirror``).
    ///
    /// - Throws: ``SyncEngineError`` when it does not decode or is rejected.
    @discardableResult
    static func apply(_ entry: JournalEntry, to state: inout App.State) throws(SyncEngineError) -> Footprint {
        let command: SessionCommand<App.Action>
        do {
            command = try SessionCommandCoding.decode(entry.action, as: App.Action.self)
        } catch {
            throw SyncEngineError.undecodableEntry(revision: entry.revision, reason: "\(error)")
        }
        do throws(Rejection) {
            return try App.reducer.reduce(into: &state, action: command, meta: entry.meta)
        } catch {
            throw SyncEngineError.rejectedOnReplay(revision: entry.revision, code: error.code, message: error.message)
        }
    }
}
