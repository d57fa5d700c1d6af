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
    /// The mirror starts from the snapshot's JSON and follows each replayed
    /// entry's ``Footprint`` (the cost of what changed); an entry whose
    /// footprint does not say what changed, or no snapshot, makes it
    /// encode the whole state once at the end instead.
    ///
    /// - Throws: ``SyncEngineError`` when the snapshot or an entry does not
    ///   decode or an entry is rejected; ``JournalError`` when reading fails.
    static func restore(from journal: any Journal) async throws -> RecoveredState {
        let recovery = try await journal.recovery()
        var state = App.initialState
        var revision: UInt64 = 0
        var mirror: StateMirror<App>?
        if let snapshot = recovery.snapshot {
            let json = try parse(snapshot)
            state = try decode(json, of: snapshot)
            mirror = StateMirror(decodedFrom: json)
            revision = snapshot.revision
        }
        for try await entry in recovery.entries {
            let footprint = try apply(entry, to: &state)
            if footprint.changedRegions == nil {
                mirror = nil
            } else {
                try mirror?.update(to: state, footprint: footprint)
            }
            revision = entry.revision
        }
        mirror?.forgetChanges()
        return RecoveredState(
            state: state,
            mirror: try mirror ?? StateMirror<App>(state),
            revision: revision,
            snapshotRevision: recovery.snapshot?.revision ?? 0,
            epoch: recovery.epoch
        )
    }

    /// The state a snapshot holds.
    ///
    /// - Throws: ``SyncEngineError`` when it does not decode as `App.State`.
    static func decode(_ snapshot: JournalSnapshot) throws(SyncEngineError) -> App.State {
        try decode(try parse(snapshot), of: snapshot)
    }

    /// The JSON of a snapshot.
    ///
    /// - Throws: ``SyncEngineError`` when it is not JSON.
    private static func parse(_ snapshot: JournalSnapshot) throws(SyncEngineError) -> JSONValue {
        do {
            return try JSONParser().parse(snapshot.state)
        } catch {
            throw SyncEngineError.undecodableSnapshot(revision: snapshot.revision, reason: "\(error)")
        }
    }

    /// The state the JSON of `snapshot` holds.
    ///
    /// - Throws: ``SyncEngineError`` when it does not decode as `App.State`.
    private static func decode(_ json: JSONValue, of snapshot: JournalSnapshot) throws(SyncEngineError) -> App.State {
        do {
            return try JSONValueDecoder().decode(App.State.self, from: json)
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
