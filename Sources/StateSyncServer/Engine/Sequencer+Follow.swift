import Logging
import StateSyncCore
import StateSyncJournal
import StateSyncProtocol
import Synchronization

/// A snapshot another node wrote at a newer app schema version than this
/// app's, met while catching up: this node cannot read it.
struct NewerSchemaMet: Error {
    /// Its schema version.
    let version: Int
    /// Its revision.
    let revision: UInt64
}

/// What the sequencer knows of other writers of a shared journal (a cluster).
struct FollowState {
    /// Whether the store holds revisions this node has not read: the batch
    /// in flight was refused, or its outcome is unknown.
    var behind = false
    /// The highest head a hint announced (``SharedJournal/follow(hint:)``). A
    /// hint can announce this node's own commit before its completion
    /// does, so only a head past the published revision means others wrote.
    var hintedHead: UInt64 = 0
    /// Inputs of refused batches, to sequence again once caught up.
    var redo: [BatchInput] = []
    /// The batch whose commit's outcome is unknown, until a catch-up settles it.
    var unknownCommit: UnknownCommit?
    /// Whether a refused batch held a pair another node had decided: the
    /// round that sequences it again looks its pairs up in the journal.
    var verifyPairs = false
    /// Refusals since the last batch of this node's was written.
    var conflictsInARow = 0
    /// Failed attempts to read what others wrote since the last success.
    var failedReads = 0

    /// Whether the store may hold revisions past `published`.
    func mayBeAhead(of published: UInt64) -> Bool {
        behind || hintedHead > published
    }

    /// Whether nothing waits to be sequenced again.
    var isIdle: Bool { redo.isEmpty }

    /// Refusals in a row after which each catch-up first waits (backoff)
    /// and a warning is logged: a node that keeps losing the race gives the
    /// others room instead of spinning, and never drops its work.
    static let quietConflicts = 8
    /// The wait before the first catch-up after a failed read, or after
    /// ``quietConflicts`` refusals; doubled each time, up to ``maximumDelay``.
    static let firstDelay = Duration.milliseconds(20)
    /// The longest such wait.
    static let maximumDelay = Duration.seconds(1)

    /// The wait before retry number `attempt` (1 for the first).
    static func delay(attempt: Int) -> Duration {
        RetryBackoff(first: firstDelay, maximum: maximumDelay).delay(attempt: attempt)
    }
}

/// Following a shared journal: told that others wrote, a node rewinds to its
/// published state, replays their entries, and sequences its dropped work
/// again. The commit refuses a pair decided elsewhere (``JournalError/isOutcomeConflict``).
extension Sequencer {
    /// Another node moved the head before the batch in flight, or had
    /// decided one of its pairs: nothing of it was written and none of its
    /// answers leave; it is sequenced again once caught up.
    func refused(_ error: JournalError) {
        guard let batch = commits.refused() else { return }
        following.redo += batch.inputs
        following.behind = true
        if error.isOutcomeConflict { following.verifyPairs = true }
        following.conflictsInARow += 1
        // Outcomes decided in memory for the refused batch are not durable.
        exactlyOnce.forgetUndurable()
        let level: Logger.Level = following.conflictsInARow >= FollowState.quietConflicts ? .warning : .debug
        logger.log(level: level, "another node wrote first; catching up and sequencing the batch again", metadata: [
            "rev": "\(publication.revision)", "conflicts": "\(following.conflictsInARow)", "error": "\(error)"])
    }

    /// The connection was lost during `COMMIT`: the batch's acks are withheld and
    /// their sessions closed, then a catch-up reads whether it landed
    /// (``settle(_:against:)``).
    func outcomeUnknown(_ error: JournalError) {
        logger.error("the journal lost its connection during COMMIT; catching up from the store", metadata: ["error": "\(error)"])
        let unknown = commits.inFlight.map(Self.acceptedDispatches) ?? []
        following.unknownCommit = commits.inFlight.map(UnknownCommit.init)
        let reason = "the server lost its storage while storing the action"
        guard var failed = commits.outcomeUnknown(reason: reason) else { return }
        exactlyOnce.forgetUndurable()
        withholdAnswers(to: unknown, in: &failed)
        publish(failed)
        following.behind = true
    }

    /// Catches up with the store when it may have moved and no batch is in
    /// flight (see the extension's documentation).
    func catchUpIfBehind() async {
        guard following.mayBeAhead(of: publication.revision), commits.inFlight == nil, commits.failure == nil else { return }
        if following.conflictsInARow >= FollowState.quietConflicts {
            try? await Task.sleep(for: FollowState.delay(attempt: following.conflictsInARow - FollowState.quietConflicts + 1))
        }
        let dropped = commits.takeBuilding()
        var inputs = following.redo + dropped.inputs
        following.redo = []
        if authority.revision != publication.revision || !dropped.journal.isEmpty {
            exactlyOnce.forgetUndurable()
            do throws(SyncEngineError) {
                try authority.rewind(to: publication.state, revision: publication.revision)
            } catch {
                return stopFollowing("its published state does not decode (\(error))", inputs: inputs)
            }
        }
        let missed: MissedEntries
        do {
            missed = try await readMissedEntries()
        } catch let newer as NewerSchemaMet {
            return stopServingNewerStore(version: newer.version, from: newer.revision)
        } catch let error as SyncEngineError {
            return stopFollowing("the store's snapshot does not load here (\(error))", inputs: inputs)
        } catch let error as JournalError where error.isHistoryLost {
            return stopFollowing("\(error)", inputs: inputs)
        } catch {
            return retryCatchUp(after: error, inputs: inputs)
        }
        following.failedReads = 0
        if let newer = missed.entries.first(where: { $0.schemaVersion > App.schemaVersion }) {
            return stopServingNewerStore(version: newer.schemaVersion, from: newer.revision)
        }
        let settled = following.unknownCommit.take().map { settle($0, against: missed) }
        if !missed.isEmpty {
            var batch = missed.batch
            do throws(SyncEngineError) {
                for entry in missed.entries { batch.change.merge(try authority.follow(entry)) }
            } catch {
                return stopFollowing("another node's entry does not replay here (\(error))", inputs: inputs)
            }
            batch.journal.entries = missed.entries
            batch.state = authority.mirror.json
            publish(batch)
            countLiveSessionsRemoved(by: missed.entries)
            logger.debug("followed the store", metadata: ["entries": "\(missed.entries.count)", "rev": "\(publication.revision)"])
        }
        if let settled {
            for start in settled.effects { start() }
            inputs = settled.commands + inputs
        }
        sharedJournal?.caughtUp(through: publication.revision)
        following.behind = false
        following.hintedHead = 0
        await sequenceAgain(inputs)
    }

    /// For the batch of unknown outcome: start its effects if `missed` shows it
    /// landed, else sequence its commands again.
    private func settle(_ unknown: UnknownCommit, against missed: MissedEntries) -> (effects: [@Sendable () -> Void], commands: [BatchInput]) {
        let settlement = unknown.settle(against: missed.entries, skippedSnapshot: missed.skipped > 0)
        let metadata: Logger.Metadata = [
            "revisions": "\(unknown.entries.first?.revision ?? 0)-\(unknown.entries.last?.revision ?? 0)", "outcome": "\(settlement)"]
        switch settlement {
        case .landed:
            logger.notice("the commit of unknown outcome landed; starting its effects", metadata: metadata)
            return (unknown.effects, [])
        case .lost:
            logger.notice("the commit of unknown outcome did not land; sequencing its commands again", metadata: metadata)
            return ([], unknown.commands)
        case .undecidable:
            logger.warning("whether the commit of unknown outcome landed cannot be told (the store no longer keeps its entries); its effects and commands are dropped", metadata: metadata)
            return ([], [])
        }
    }

    /// Reading what others wrote failed: the inputs wait, and the catch-up
    /// is tried again after a backoff.
    private func retryCatchUp(after error: any Error, inputs: [BatchInput]) {
        following.redo = inputs
        following.failedReads += 1
        let delay = FollowState.delay(attempt: following.failedReads)
        logger.error("reading other nodes' entries failed; retrying", metadata: [
            "error": "\(error)", "failures": "\(following.failedReads)", "retryIn": "\(delay)"])
        let (inbox, next) = (inbox, publication.revision + 1)
        Task {
            try? await Task.sleep(for: delay)
            inbox.post(.journalHint(next))   // wakes the sequencer; `behind` or the hint is still set
        }
    }

    /// This node cannot follow the store any more (its state would fork
    /// from the others'): it accepts no more actions, and the inputs it
    /// held are answered `internal_error`.
    private func stopFollowing(_ reason: String, inputs: [BatchInput]) {
        logger.critical("cannot follow the shared journal; the engine accepts no more actions", metadata: ["reason": "\(reason)"])
        stopFollowing(because: "the server cannot follow the shared store and accepts no more actions")
        for case let .dispatch(sessionID, id, _, received) in inputs {
            commits.answer(DispatchAnswer(
                sessionID: sessionID, actionID: id,
                outcome: .rejected(code: "internal_error", message: "the server cannot follow the shared store"),
                received: received, isDuplicate: false))
        }
    }

    /// Another node wrote the store at a newer app schema `version`: accept no
    /// more actions and close every session with 1013 so its client goes to a
    /// node that knows it; held dispatches stay unanswered and are resent there.
    private func stopServingNewerStore(version: Int, from revision: UInt64) {
        let reason = "the store is at app schema version \(version) from revision \(revision), newer than this node's \(App.schemaVersion): this node no longer serves it; upgrade it"
        logger.critical("another node wrote the store at a newer app schema version; this node no longer serves it", metadata: [
            "stored": "\(version)", "known": "\(App.schemaVersion)", "rev": "\(revision)"])
        shared.newerStoredSchema.store(version, ordering: .releasing)
        following.redo = []
        stopFollowing(because: reason)
        let closing = ProtocolError.storeSchemaNewer(store, stored: version, served: App.schemaVersion).message
        for sessionID in publication.sessions.keys { moveElsewhere(sessionID, reason: closing) }
    }

    /// Forgets what following meant to do (a commit to settle, a catch-up
    /// due) and accepts no more actions, for `reason` (what `/health` says).
    private func stopFollowing(because reason: String) {
        following.unknownCommit = nil
        following.behind = false
        following.hintedHead = 0
        stopAccepting(reason: reason)
    }

    /// Sequences `inputs` again, in order, on the caught-up state; each is first
    /// withdrawn from this node's route count (``DispatchRoutes``) so none waits
    /// behind the others.
    private func sequenceAgain(_ inputs: [BatchInput]) async {
        guard !inputs.isEmpty else { return }
        if following.verifyPairs { exactlyOnce.verifyWithJournal() }
        following.verifyPairs = false
        let dispatches = inputs.compactMap { input -> EngineEvent? in
            guard case let .dispatch(sessionID, id, action, received) = input else { return nil }
            return .request(sessionID: sessionID, .dispatch(id: id, action: action), received: received)
        }
        await prefetchOutcomes(for: dispatches)
        for case let .dispatch(sessionID, id, _, _) in inputs { routes.withdraw(id, of: sessionID) }
        var again = OwnWrites.HeldAgain()
        for input in inputs {
            switch input {
            case let .dispatch(sessionID, id, action, received):
                let request = OwnWrites.HeldRequest(sessionID: sessionID, request: .dispatch(id: id, action: action), received: received, revision: 0)
                await perform(request, holdingIn: &again)
            case let .command(journaled, clientID):
                applySystemCommand(journaled, clientID: clientID)
            }
        }
        ownWrites.holdAhead(again.requests)
        exactlyOnce.endRound()
    }
}
