import Foundation
import StateSyncCore
import StateSyncJournal

/// The server's own copy of the app state: the reduced state (including
/// batches not yet durable), its JSON mirror and head revision. Commands go
/// through ``ActionPipeline``; replay does not, so middleware never runs twice.
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

    /// Runs `command` through the pipeline at the next revision. The journal
    /// keeps the command as the app decoded it, never a client's object as sent.
    mutating func apply(_ command: SessionCommand<App.Action>, clientID: String?, actionID: String?) -> Applied {
        let meta = Meta(revision: revision + 1, clientID: clientID, time: clock())
        let started = pipeline.startClock()
        // The state before the reducer, for middleware that observe changes and,
        // near the size limit, to undo an action that would pass it. Keeping it makes
        // the reducer copy what it changes, so far below the limit it is not kept.
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

    /// Whether `command` would leave the state equal and start no effects, so the
    /// engine need not journal it (``SessionCommand/serverStarted``).
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

    /// Follows another node's entry: replayed through the reducer alone with its
    /// stored `Meta` (``RecoveredState/apply(_:to:)``), which yields the writer's
    /// exact state; returns what changed in the mirror.
    mutating func follow(_ entry: JournalEntry) throws(SyncEngineError) -> MirrorDelta {
        let footprint = try RecoveredState<App>.apply(entry, to: &state)
        try mirror.update(to: state, footprint: footprint)
        revision = entry.revision
        return mirror.takeChange()
    }

    /// Goes back to the durable state `json` at `revision`, dropping batches that
    /// will never be written as they were (another node moved the shared head, or
    /// their commit's outcome is unknown).
    mutating func rewind(to json: JSONValue, revision: UInt64) throws(SyncEngineError) {
        do {
            state = try JSONValueDecoder().decode(App.State.self, from: json)
        } catch {
            throw SyncEngineError.undecodableSnapshot(revision: revision, reason: "\(error)")
        }
        mirror = try StateMirror<App>(state)
        self.revision = revision
    }

    /// Puts back the state from before a reducer whose result the mirror refused:
    /// `old` when kept, else decoded from the mirror. `false` when the mirror does
    /// not decode; the action is then let through rather than lose the state.
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
