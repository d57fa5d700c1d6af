import Foundation
import StateSyncCore

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

    /// The recovered state, run through `pipeline` from now on; `clock` fixes `Meta.time`.
    init(
        recovered: RecoveredState<App>, pipeline: ActionPipeline<App.State, SessionCommand<App.Action>>,
        clock: @escaping @Sendable () -> Date
    ) {
        state = recovered.state
        mirror = recovered.mirror
        revision = recovered.revision
        self.pipeline = pipeline
        self.clock = clock
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
        switch pipeline.process(command, state: &state, meta: meta) {
        case .rejected(let rejection):
            return .rejected(rejection)
        case let .accepted(footprint, effect):
            revision = meta.revision
            var unencodable: String?
            do throws(SyncEngineError) {
                try mirror.update(to: state, footprint: footprint)
            } catch {
                unencodable = "\(error)"
            }
            let entry = JournalEntry(meta: meta, actionID: actionID, action: SessionCommandCoding.encode(command))
            return .accepted(AcceptedCommand(entry: entry, change: mirror.takeChange(), effect: effect, unencodable: unencodable))
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
