import StateSyncCore
import StateSyncJournal
import StateSyncProtocol

/// The state rebuilt from a journal at startup: the last snapshot plus the
/// later entries, reduced with their recorded ``Meta`` and migrated or upcast
/// from older schema versions (`App.migrations`).
struct RecoveredState<App: StateSyncApp> {
    var state: App.State
    var mirror: StateMirror<App>
    var revision: UInt64
    var snapshotRevision: UInt64
    var epoch: String
    /// The oldest schema version met, when older than the app's: the
    /// engine then saves a snapshot of the app's version at once.
    var migratedFrom: Int?

    /// Restores `journal`'s state through `App.reducer`, decoding the snapshot in
    /// a child task while this one decodes the entries after it.
    static func restore(from journal: any Journal, pageSize: Int = 1_000) async throws -> RecoveredState {
        let recovery = try await journal.recovery(pageSize: pageSize)
        async let restoredSnapshot = recovery.snapshot.map { snapshot throws(SyncEngineError) in
            let json = try parse(snapshot)
            return (state: try decode(json, of: snapshot), mirror: StateMirror<App>(decodedFrom: json))
        }
        var entries = recovery.entries.makeAsyncIterator()
        var ahead: [(entry: JournalEntry, command: SessionCommand<App.Action>)] = []
        var aheadFailure: (any Error)?
        do {
            while ahead.count < pageSize, let entry = try await entries.next() { ahead.append((entry, try command(of: entry))) }
        } catch {
            aheadFailure = error
        }
        let snapshot = try await restoredSnapshot
        if let aheadFailure { throw aheadFailure }
        var state = snapshot?.state ?? App.initialState
        var mirror = snapshot?.mirror
        var revision = recovery.snapshot?.revision ?? 0
        var oldest = recovery.snapshot?.schemaVersion ?? App.schemaVersion
        func replay(_ entry: JournalEntry, _ command: SessionCommand<App.Action>) throws {
            oldest = min(oldest, entry.schemaVersion)
            let footprint = try reduce(command, meta: entry.meta, revision: entry.revision, into: &state)
            if footprint.changedRegions == nil {
                mirror = nil
            } else {
                try mirror?.update(to: state, footprint: footprint)
            }
            revision = entry.revision
        }
        for (entry, command) in ahead { try replay(entry, command) }
        while let entry = try await entries.next() { try replay(entry, try command(of: entry)) }
        mirror?.forgetChanges()
        return RecoveredState(
            state: state,
            mirror: try mirror ?? StateMirror<App>(state),
            revision: revision,
            snapshotRevision: recovery.snapshot?.revision ?? 0,
            epoch: recovery.epoch,
            migratedFrom: oldest < App.schemaVersion ? oldest : nil
        )
    }

    /// The state a snapshot holds.
    ///
    /// - Throws: ``SyncEngineError`` when it does not decode as `App.State`.
    static func decode(_ snapshot: JournalSnapshot) throws(SyncEngineError) -> App.State {
        try decode(try parse(snapshot), of: snapshot)
    }

    /// The JSON of a snapshot, migrated to the app's schema version. Its size is
    /// not bounded by the parser's default: the server wrote it under
    /// `--max-state-bytes`, which may be above that default.
    static func parse(_ snapshot: JournalSnapshot) throws(SyncEngineError) -> JSONValue {
        let json: JSONValue
        do {
            json = try JSONParser(limits: JSONParser.Limits(maxInputBytes: max(snapshot.state.count, JSONParser.Limits().maxInputBytes)))
                .parse(snapshot.state)
        } catch {
            throw SyncEngineError.undecodableSnapshot(revision: snapshot.revision, reason: "\(error)")
        }
        guard snapshot.schemaVersion != App.schemaVersion else { return json }
        do {
            return try App.migrations.migrateState(json, from: snapshot.schemaVersion, to: App.schemaVersion)
        } catch {
            throw SyncEngineError.unmigratable(
                revision: snapshot.revision, what: "snapshot", version: snapshot.schemaVersion, reason: "\(error)")
        }
    }

    /// The journaled bytes of `entry`, its action upcast to the app's schema version.
    ///
    /// - Throws: ``SyncEngineError`` when they are not JSON, or the action
    ///   cannot be upcast (a newer version, a step that fails).
    private static func upcast(_ entry: JournalEntry) throws(SyncEngineError) -> [UInt8] {
        guard entry.schemaVersion != App.schemaVersion else { return entry.action }
        do {
            return try SessionCommandCoding.upcastingAction(in: entry.action) { action in
                try App.migrations.upcastAction(action, from: entry.schemaVersion, to: App.schemaVersion)
            }
        } catch let error as SchemaError {
            throw SyncEngineError.unmigratable(revision: entry.revision, what: "journal entry", version: entry.schemaVersion, reason: "\(error)")
        } catch {
            throw SyncEngineError.undecodableEntry(revision: entry.revision, reason: "\(error)")
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
        try reduce(command(of: entry), meta: entry.meta, revision: entry.revision, into: &state)
    }

    /// The command journaled in `entry`, upcast to the app's schema version.
    ///
    /// - Throws: ``SyncEngineError`` when it does not decode.
    static func command(of entry: JournalEntry) throws(SyncEngineError) -> SessionCommand<App.Action> {
        let bytes = try upcast(entry)
        do {
            return try SessionCommandCoding.decode(bytes, as: App.Action.self)
        } catch {
            throw SyncEngineError.undecodableEntry(revision: entry.revision, reason: "\(error)")
        }
    }

    /// Reduces the command journaled at `revision` into `state` with its
    /// recorded ``Meta``; returns the reducer's ``Footprint``.
    ///
    /// - Throws: ``SyncEngineError`` when the reducer rejects it.
    private static func reduce(
        _ command: SessionCommand<App.Action>, meta: Meta, revision: UInt64, into state: inout App.State
    ) throws(SyncEngineError) -> Footprint {
        do throws(Rejection) {
            return try App.reducer.reduce(into: &state, action: command, meta: meta)
        } catch {
            throw SyncEngineError.rejectedOnReplay(revision: revision, code: error.code, message: error.message)
        }
    }
}
