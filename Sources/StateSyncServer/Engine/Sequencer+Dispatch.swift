import StateSyncJournal
import Synchronization
import CoreMetrics
import Logging
import Foundation
import StateSyncCore
import StateSyncProtocol

extension Sequencer {
    /// Reduces one client action into the building batch, answers it from its
    /// earlier outcome, or forwards it to the store's writer. Returns whether it
    /// must wait for its session's dispatches on the other route (``OwnWrites``).
    @discardableResult
    func dispatch(
        _ object: JSONObject, id: String, from sessionID: String, received: ContinuousClock.Instant,
        route: DispatchRoute = .mayForward
    ) async -> Bool {
        guard let session = publication.sessions[sessionID] else { return false }
        let dispatch = Dispatch(session: session, id: id, action: object, received: received)
        if route == .mayForward {
            switch await take(dispatch) {
            case .sequenceHere: break
            case .forwarded: return false
            case .waits: return true
            }
        }
        await sequence(dispatch, route: route)
        return false
    }

    /// Reduces `dispatch` into the building batch, or answers it from its
    /// earlier outcome.
    private func sequence(_ dispatch: Dispatch, route: DispatchRoute) async {
        let (session, id, object, received) = (dispatch.session, dispatch.id, dispatch.action, dispatch.received)
        let sessionID = session.info.id
        let input = BatchInput.dispatch(sessionID: sessionID, id: id, action: object, received: received)
        // After an unanswered forward the writer may have stored it: the journal says.
        if let key = dispatch.key, let outcome = await earlierOutcome(of: key, askingTheJournal: route == .afterUnansweredForward) {
            if route == .afterUnansweredForward {
                switch outcome {
                case .rejected(RejectCode.unavailable.rawValue, let reason):
                    return closeUnansweredForward(of: sessionID, id: id, reason: reason)
                case .accepted(let revision):
                    // Answered once this node has published the writer's revision, as the writer's own ack would be.
                    return holdAck(dispatch.answer(outcome, isDuplicate: true), of: sessionID, until: revision)
                case .rejected:
                    break
                }
            }
            commits.record(input)
            commits.answer(dispatch.answer(outcome, isDuplicate: true))
            return
        }
        let newer = shared.newerStoredSchema.load(ordering: .acquiring)
        if newer > 0 {
            return refuseForNewerStore(dispatch, stored: newer)
        }
        if let failure = commits.failure {
            commits.answer(dispatch.answer(.rejected(code: "internal_error", message: failure), isDuplicate: false))
            return
        }
        if let fault = journal.writeFault, !fault.isFinal {
            if route == .afterUnansweredForward { return closeUnansweredForward(of: sessionID, id: id, reason: fault.reason) }
            // Refused, not held or remembered, so nothing piles up behind the fault and
            // the pair may be sent again. It says nothing of an earlier send of the pair.
            let message = "the server cannot store actions right now (\(fault.reason)); this dispatch was not applied: send it again later"
            answerAtOnce(dispatch.answer(.rejected(code: RejectCode.unavailable.rawValue, message: message), isDuplicate: false))
            return
        }
        commits.record(input)
        if let key = dispatch.key, let refusal = exactlyOnce.admit(key.clientID, now: authority.now()) {
            commits.answer(dispatch.answer(.rejected(code: RejectCode.tooManyClients.rawValue, message: refusal), isDuplicate: false))
            return
        }
        guard session.role.mayDispatch else {
            decide(.rejected(code: "forbidden", message: "role \(session.role.rawValue) may not dispatch"), for: dispatch)
            return
        }
        let action: App.Action
        do throws(Rejection) {
            action = try App.Action(wireValue: object)
        } catch {
            decide(.rejected(code: error.code, message: error.message), for: dispatch)
            return
        }
        switch authority.apply(.dispatch(action, from: session.info), clientID: session.clientID, actionID: id) {
        case .rejected(let rejection):
            logger.trace("rejected", metadata: ["code": "\(rejection.code)", "session": "\(sessionID)", "id": "\(id)"])
            decide(.rejected(code: rejection.code, message: rejection.message), for: dispatch)
        case .accepted(let accepted):
            logger.trace("accepted", metadata: ["rev": "\(accepted.entry.revision)", "session": "\(sessionID)", "id": "\(id)"])
            record(accepted)
            ownWrites.caused(accepted.entry.revision, by: sessionID)
            decide(.accepted(revision: accepted.entry.revision), for: dispatch)
        }
    }

    /// A dispatch after another node wrote the store at a newer schema: a
    /// client's session is sent elsewhere unanswered so it resends there; a
    /// forwarded or HTTP one is refused `schema_too_new`.
    private func refuseForNewerStore(_ dispatch: Dispatch, stored: Int) {
        let message = ProtocolError.storeSchemaNewer(store, stored: stored, served: App.schemaVersion).message
        guard !dispatch.session.announced else { return moveElsewhere(dispatch.session.info.id, reason: message) }
        answerAtOnce(dispatch.answer(.rejected(code: RejectCode.schemaTooNew.rawValue, message: message), isDuplicate: false))
    }

    /// Closes session `sessionID` so that its client goes to another node (``SessionSink/moveElsewhere(reason:)``).
    func moveElsewhere(_ sessionID: String, reason: String) {
        publication.withShard(of: sessionID) { $0.sessions[sessionID]?.sink.moveElsewhere(reason: reason) }
    }

    /// Runs a command of the server's own (presence, `serverStarted`, an
    /// effect's follow-up) through the pipeline; a rejection is logged.
    func applyServerCommand(_ command: SessionCommand<App.Action>, clientID: String?) {
        guard commits.failure == nil else { return }
        switch authority.apply(command, clientID: clientID, actionID: nil) {
        case .rejected(let rejection):
            logger.warning("a server command was rejected", metadata: ["code": "\(rejection.code)", "message": "\(rejection.message)"])
        case .accepted(let accepted):
            commits.record(.command(journaled: accepted.entry.action, clientID: clientID))
            record(accepted)
        }
    }

    /// Applies an effect's follow-up, or a server command sequenced again,
    /// which come in their journal form.
    func applySystemCommand(_ journaled: [UInt8], clientID: String? = nil) {
        do {
            applyServerCommand(try SessionCommandCoding.decode(journaled, as: App.Action.self), clientID: clientID)
        } catch {
            // Encoded by `startEffect` from a command of this app: cannot happen.
            logger.error("an effect's follow-up does not decode", metadata: ["error": "\(error)"])
        }
    }

    /// Adds an accepted command to the building batch.
    private func record(_ accepted: AcceptedCommand<App>) {
        if let reason = accepted.unencodable {
            // The reducer produced a state JSON cannot express: serving it
            // would break every mirror, so the engine stops accepting.
            logger.critical("the state no longer encodes to JSON; the engine accepts no more actions", metadata: ["error": "\(reason)"])
            stopAccepting(reason: reason)
        }
        commits.append(accepted.entry, change: accepted.change, startingEffect: accepted.effect.isNone ? nil : startEffect(accepted.effect))
    }

    /// Starts `effect` once its command is durable. Its follow-ups come back
    /// as ``EngineEvent/system(_:reduced:)`` events and are journaled like any
    /// other command, so replay never runs an effect again.
    private func startEffect(_ effect: Effect<SessionCommand<App.Action>>) -> @Sendable () -> Void {
        let (effects, inbox) = (effects, inbox)
        return {
            effects.start(effect) { command in
                let journaled = SessionCommandCoding.encode(command)
                await withCheckedContinuation { reduced in
                    if !inbox.post(.system(journaled: journaled, reduced: reduced)) { reduced.resume() }
                }
            }
        }
    }

    /// Records the outcome of a new dispatch (a rejection also for the
    /// devtools' ``RejectionLog``, once its batch is published) and queues
    /// its answer.
    private func decide(_ outcome: JournalOutcome, for dispatch: Dispatch) {
        var journaled: JournalRejection?
        if case let .rejected(code, message) = outcome {
            let session = dispatch.session
            commits.log(RejectedAction(
                sequence: 0, time: authority.now(), revision: authority.revision, sessionID: session.info.id,
                clientID: session.clientID, actionID: dispatch.id, action: RejectionLog.kept(dispatch.action), code: code,
                message: message))
            journaled = dispatch.key.map { JournalRejection(clientID: $0.clientID, actionID: $0.actionID, code: code, message: message) }
        }
        if let key = dispatch.key { exactlyOnce.decided(outcome, for: key, now: authority.now()) }
        commits.answer(dispatch.answer(outcome, isDuplicate: false), journaling: journaled)
    }
}

/// One client dispatch as the sequencer handles it.
struct Dispatch {
    /// The sending session.
    var session: JoinedSession
    /// The action id the client chose.
    var id: String
    /// The action object as sent.
    var action: JSONObject
    /// When it reached the engine.
    var received: ContinuousClock.Instant

    /// Its exactly-once key, when the session gave a `clientId`.
    var key: OutcomeKey? { session.clientID.map { OutcomeKey(clientID: $0, actionID: id) } }

    /// Its answer.
    func answer(_ outcome: JournalOutcome, isDuplicate: Bool) -> DispatchAnswer {
        DispatchAnswer(sessionID: session.info.id, actionID: id, outcome: outcome, received: received, isDuplicate: isDuplicate)
    }
}
