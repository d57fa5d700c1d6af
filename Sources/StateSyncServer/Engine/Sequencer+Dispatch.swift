import Logging
import StateSyncCore
import StateSyncProtocol
import Synchronization

extension Sequencer {
    /// Reduces one client action into the building batch, or answers it from
    /// a remembered outcome (exactly-once per `(clientId, id)`).
    func dispatch(sessionID: String, id: String, action object: JSONObject, received: ContinuousClock.Instant) async {
        guard let session = sessions[sessionID] else { return }
        let key = session.clientID.map { OutcomeKey(clientID: $0, actionID: id) }
        if let key, let outcome = await rememberedOutcome(key) {
            answer(session, id, outcome, received: received, duplicate: true)
            return
        }
        if let failure {
            answer(session, id, .rejected(code: "internal_error", message: failure), received: received, duplicate: false)
            return
        }
        guard session.role.mayDispatch else {
            decide(.rejected(code: "forbidden", message: "role \(session.role.rawValue) may not dispatch"), session, id, key, received, object)
            return
        }
        let command: SessionCommand<App.Action>
        do throws(Rejection) {
            command = .dispatch(try App.Action(wireValue: object), from: session.info)
        } catch {
            decide(.rejected(code: error.code, message: error.message), session, id, key, received, object)
            return
        }
        let meta = Meta(revision: headRevision + 1, clientID: session.clientID, time: configuration.clock())
        do throws(Rejection) {
            let footprint = try reducer.reduce(into: &state, action: command, meta: meta)
            logger.trace("accepted", metadata: ["rev": "\(meta.revision)", "session": "\(sessionID)", "id": "\(id)"])
            accept(meta, footprint: footprint, actionID: id, bytes: CommandCoding.dispatch(object, from: session.info))
            decide(.accepted(revision: meta.revision), session, id, key, received, object)
        } catch {
            logger.trace("rejected", metadata: ["code": "\(error.code)", "session": "\(sessionID)", "id": "\(id)"])
            decide(.rejected(code: error.code, message: error.message), session, id, key, received, object)
        }
    }

    /// Reduces a lifecycle command the server journals itself (presence).
    func reduceLifecycle(_ command: SessionCommand<App.Action>, bytes: [UInt8], clientID: String?) {
        guard failure == nil else { return }
        let meta = Meta(revision: headRevision + 1, clientID: clientID, time: configuration.clock())
        do throws(Rejection) {
            let footprint = try reducer.reduce(into: &state, action: command, meta: meta)
            accept(meta, footprint: footprint, actionID: nil, bytes: bytes)
        } catch {
            logger.warning("the reducer rejected a lifecycle command", metadata: ["code": "\(error.code)", "message": "\(error.message)"])
        }
    }

    func join(_ info: SessionInfo, clientID: String?, role: Role, sink: any SessionSink) {
        sessions[info.id] = SessionRecord(info: info, clientID: clientID, role: role, sink: sink)
        logger.debug("session joined", metadata: ["session": "\(info.id)", "role": "\(role.rawValue)"])
        reduceLifecycle(.sessionJoined(info), bytes: CommandCoding.sessionEvent(joined: true, info), clientID: clientID)
    }

    func leave(_ sessionID: String) {
        guard let session = sessions.removeValue(forKey: sessionID) else { return }
        for (id, path) in session.subscriptions {
            trie.remove(SubscriberKey(sessionID: sessionID, id: id), at: path)
        }
        logger.debug("session left", metadata: ["session": "\(sessionID)"])
        reduceLifecycle(.sessionLeft(session.info), bytes: CommandCoding.sessionEvent(joined: false, session.info), clientID: session.clientID)
    }

    /// Records an accepted action: new head revision, mirror, journal entry.
    private func accept(_ meta: Meta, footprint: Footprint, actionID: String?, bytes: [UInt8]) {
        headRevision = meta.revision
        do throws(SyncEngineError) {
            try mirror.update(to: state, footprint: footprint)
        } catch {
            // The reducer produced a state JSON cannot express: serving it
            // would break every mirror, so the engine stops accepting.
            logger.critical("the state no longer encodes to JSON; the engine accepts no more actions", metadata: ["error": "\(error)"])
            failure = "\(error)"
        }
        building.journal.entries.append(JournalEntry(meta: meta, actionID: actionID, action: bytes))
        building.change.merge(mirror.takeChange())
    }

    /// Records the outcome of a new dispatch (a rejection also in the
    /// devtools' ``RejectionLog``) and queues its answer.
    private func decide(
        _ outcome: JournalOutcome, _ session: SessionRecord, _ id: String, _ key: OutcomeKey?,
        _ received: ContinuousClock.Instant, _ action: JSONObject
    ) {
        if case let .rejected(code, message) = outcome {
            shared.rejections.withLock {
                $0.record(
                    time: configuration.clock(), revision: headRevision, sessionID: session.info.id,
                    clientID: session.clientID, actionID: id, action: action, code: code, message: message)
            }
        }
        if let key {
            outcomes.remember(outcome, for: key)
            if case let .rejected(code, message) = outcome {
                building.journal.rejections.append(
                    JournalRejection(clientID: key.clientID, actionID: key.actionID, code: code, message: message))
            }
        }
        answer(session, id, outcome, received: received, duplicate: false)
    }

    private func answer(_ session: SessionRecord, _ id: String, _ outcome: JournalOutcome, received: ContinuousClock.Instant, duplicate: Bool) {
        building.answers.append(DispatchAnswer(
            sessionID: session.info.id, actionID: id, outcome: outcome, received: received, isDuplicate: duplicate))
    }

    /// The outcome of `key` from memory, else from the journal (pairs from
    /// before a restart, or forgotten by the bounded cache). When the journal cannot be read, the answer is an
    /// `internal_error` rejection (not remembered): applying the action could
    /// apply it twice.
    private func rememberedOutcome(_ key: OutcomeKey) async -> JournalOutcome? {
        if let outcome = outcomes[key] { return outcome }
        // A journal that was empty when the engine started holds only pairs
        // decided in this run, all remembered in memory unless evicted.
        guard journalHasEarlierOutcomes || outcomesEvicted, checkedAbsentOutcomes.remove(key) == nil else { return nil }
        do {
            guard let outcome = try await journal.outcome(clientID: key.clientID, actionID: key.actionID) else { return nil }
            outcomes.remember(outcome, for: key)
            return outcome
        } catch {
            logger.error("reading a remembered outcome failed", metadata: ["client": "\(key.clientID)", "id": "\(key.actionID)", "error": "\(error)"])
            return .rejected(code: "internal_error", message: "could not check whether action \(key.actionID) was already applied: \(error)")
        }
    }
}
