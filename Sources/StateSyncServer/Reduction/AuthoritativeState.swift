import Foundation
import StateSyncCore
import StateSyncJournal

/// The server's own copy of the app state: the reduced state (including
/// batches not yet durable), its JSON mirror and its head revision. Every
/// command goes through the app's ``ActionPipeline`` (middleware before and
/// after the reducer, the reducer, the effect handler): the same code path
/// a Core `Store` runs, so what an app's middleware sees on the server is
/// what it sees in a local store.
///
/// Replay (recovery, time travel, a cluster follower) does not come here:
/// it runs the reducer alone with the journaled `Meta`
/// (``RecoveredState/apply(_:to:)``), so middleware and effects never run
/// twice for one action.
struct AuthoritativeState<App: StateSyncApp> {
    /// What became of one command.
    enum Applied {
        /// Accepted at `command.entry.revision`.
        case accepted(AcceptedCommand<App>)
        /// Rejected by a middleware or the reducer; nothing changed.
        case rejected(Rejection)
    }

    /// The reduced state.
    private(set) var state: App.State
    /// Its JSON form.
    private(set) var mirror: StateMirror<App>
    /// The revision of ``state``.
    private(set) var revision: UInt64
    private let pipeline: ActionPipeline<App.State, SessionCommand<App.Action>>
    private let clock: @Sendable () -> Date
    /// The largest ``StateMirror/estimatedBytes`` an action may grow the state to.
    private let maxStateBytes: Int

    /// The recovered state, run through `pipeline` from now on; `clock`
    /// fixes `Meta.time`; an action growing the state's JSON above
    /// `maxStateBytes` is rejected `state_too_large`.
    init(
        recovered: RecoveredState<App>, pipeline: ActionPipeline<App.State, SessionCommand<App.Action>>,
        clock: @escaping @Sendable () -> Date, maxStateBytes: Int = .max
    ) {
        state = recovered.state
        mirror = recovered.mirror
        revision = recovered.revision
        self.pipeline = pipeline
        self.clock = clock
        self.maxStateBytes = maxStateBytes
    }

    /// The time by the engine's clock (the one that fixes `Meta.time`).
    func now() -> Date {
        clock()
    }

    /// Runs `command` through the pipeline at the next revision. The
    /// journal keeps the command as the app decoded it (its canonical
    /// `wireValue`), never a client's object as sent: fields the app does
    /// not read are not stored.
    mutating func apply(_ command: SessionCommand<App.Action>, clientID: String?, actionID: String?) -> Applied {
        let meta = Meta(revision: revision + 1, clientID: clientID, time: clock())
        let started = pipeline.startClock()
        // The state before the reducer, for the middleware that observe
        // changes, and near the size limit to undo an action that would pass
        // it. Keeping it makes the reducer copy the containers it changes,
        // so far below the limit it is not kept (see `restoreState()`).
        let nearLimit = mirror.estimatedBytes > maxStateBytes - maxStateBytes / 8
        let old: App.State? = pipeline.keepsOldState || nearLimit ? state : nil
        let footprint: Footprint
        do throws(Rejection) {
            try pipeline.willReduce(command, state: state, meta: meta)
            footprint = try pipeline.reduce(command, into: &state, meta: meta)
        } catch {
            pipeline.didReject(command, meta: meta, rejection: error, duration: pipeline.elapsed(since: started))
            return .rejected(error)
        }
        var unencodable: String?
        do throws(SyncEngineError) {
            if try !mirror.update(to: state, footprint: footprint, limit: maxStateBytes) {
                if restoreState(old) {
                    let rejection = Rejection(
                        code: "state_too_large",
                        message: "this action would grow the state to more than its limit of \(maxStateBytes) bytes (as JSON)")
                    pipeline.didReject(command, meta: meta, rejection: rejection, duration: pipeline.elapsed(since: started))
                    return .rejected(rejection)
                }
                try mirror.update(to: state, footprint: footprint)
            }
        } catch {
            unencodable = "\(error)"
        }
        revision = meta.revision
        pipeline.didAccept(command, old: pipeline.keepsOldState ? old : nil, new: state, meta: meta, duration: pipeline.elapsed(since: started))
        let effect = pipeline.effect(after: command, state: state, meta: meta)
        let entry = JournalEntry(
            meta: meta, actionID: actionID, action: SessionCommandCoding.encode(command), schemaVersion: App.schemaVersion)
        return .accepted(AcceptedCommand(entry: entry, change: mirror.takeChange(), effect: effect, unencodable: unencodable))
    }

    /// Whether `command` would change nothing: reduced on a copy of the
    /// state with the next revision's ``Meta``, it leaves the state equal
    /// and the app's effects start nothing for it. The engine then need
    /// not journal it (``SessionCommand/serverStarted`` over a history whose
    /// sessions all left).
    func changesNothing(_ command: SessionCommand<App.Action>) -> Bool {
        let meta = Meta(revision: revision + 1, clientID: nil, time: clock())
        var probe = state
        do throws(Rejection) {
            _ = try App.reducer.reduce(into: &probe, action: command, meta: meta)
        } catch {
            return false   // a rejection is the pipeline's to report
        }
        return probe == state && pipeline.effect(after: command, state: probe, meta: meta).isNone
    }

    /// Follows an entry another node wrote (a cluster): it is replayed as
    /// in recovery, through the reducer alone with its stored `Meta`
    /// (``RecoveredState/apply(_:to:)``), so the middleware and effects,
    /// which ran on the node that accepted it, do not run again. Returns
    /// what it changed in the mirror.
    ///
    /// Why replay rather than stored patches: the journal stores actions,
    /// not patches, and the reducer is a pure function of the state, the
    /// action and the `Meta` (time included) that the journal keeps bit
    /// for bit, so the follower computes the very state the writer did,
    /// and its mirror encodes it to the same bytes. Patches would double
    /// what each batch writes, and the follower still needs the typed
    /// state to reduce its own next actions.
    ///
    /// - Throws: ``SyncEngineError`` when the entry does not decode or is
    ///   rejected, or the state no longer encodes to JSON.
    mutating func follow(_ entry: JournalEntry) throws(SyncEngineError) -> MirrorDelta {
        let footprint = try RecoveredState<App>.apply(entry, to: &state)
        try mirror.update(to: state, footprint: footprint)
        revision = entry.revision
        return mirror.takeChange()
    }

    /// Goes back to the durable state `json` at `revision` (what the
    /// engine published), dropping the effect of batches that will never
    /// be written as they were (another node moved the shared head, or
    /// their commit's outcome is unknown).
    ///
    /// - Throws: ``SyncEngineError`` when `json` does not decode as the
    ///   app's state.
    mutating func rewind(to json: JSONValue, revision: UInt64) throws(SyncEngineError) {
        do {
            state = try JSONValueDecoder().decode(App.State.self, from: json)
        } catch {
            throw SyncEngineError.undecodableSnapshot(revision: revision, reason: "\(error)")
        }
        mirror = try StateMirror<App>(state)
        self.revision = revision
    }

    /// Puts back the state from before a reducer whose result the mirror
    /// refused: `old` when it was kept, else decoded from the mirror, which
    /// still holds it (O(state), only when one action grew the state by more
    /// than an eighth of the limit from below the point where `old` is
    /// kept). `false` when the mirror does not decode: the app's `Codable`
    /// does not round-trip, so the action is let through rather than lose
    /// the state.
    private mutating func restoreState(_ old: App.State?) -> Bool {
        if let old {
            state = old
            return true
        }
        do {
            state = try JSONValueDecoder().decode(App.State.self, from: mirror.json)
            return true
        } catch {
            return false
        }
    }
}

/// A command the pipeline accepted, ready for the building batch.
struct AcceptedCommand<App: StateSyncApp> {
    /// What the journal stores.
    var entry: JournalEntry
    /// What it changed in the mirror.
    var change: MirrorDelta
    /// What to start once it is durable.
    var effect: Effect<SessionCommand<App.Action>>
    /// Why the new state no longer encodes to JSON, when it does not (the
    /// engine must then stop accepting actions).
    var unencodable: String?
}
