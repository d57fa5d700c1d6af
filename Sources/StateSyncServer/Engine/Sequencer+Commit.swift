import StateSyncJournal
import Synchronization
import CoreMetrics
import Logging
extension Sequencer {
    /// The end of a round: hands the building batch to the journal when none
    /// is in flight, or publishes it at once when it holds only answers.
    func flush() {
        shared.stateBytes.store(authority.mirror.estimatedBytes, ordering: .relaxed)
        commits.retain(exactlyOnce.takeJournalChanges())
        switch commits.flush(state: authority.mirror.json) {
        case .none:
            break
        case .write(let batch):
            exactlyOnce.sealed()
            metrics.journalAppends.increment()
            let inbox = inbox
            journal.append(batch) { result in inbox.post(.durable(result)) }
        case .publish(let batch):
            publish(batch)
        case .fail(let batch):
            exactlyOnce.forgetUndurable()
            publish(batch)
        }
    }

    /// The engine accepts no more actions, for `reason`: the commit
    /// pipeline fails every later batch, and ``SyncEngine/stopReason``
    /// (what `/health` reports) says so before any answer does.
    func stopAccepting(reason: String) {
        shared.stoppedAccepting(because: reason)
        commits.stop(reason: reason)
        // In a cluster, another node writes the store from now on.
        sharedJournal?.stopWriting()
        shared.writer.withLock { writer in if writer != nil { writer = .unknown } }
    }

    /// The batch in flight was written, or another node moved the shared head
    /// (catch up, sequence again), or its commit's outcome is unknown, or the
    /// journal failed (answer it as failed and accept no more actions).
    func durable(_ result: Result<Void, JournalError>) {
        switch result {
        case .failure(let error) where (error.isRevisionGap || error.isOutcomeConflict) && sharedJournal != nil:
            refused(error)
        case .failure(let error) where error.isCommitOutcomeUnknown && sharedJournal != nil:
            outcomeUnknown(error)
        case .success:
            guard let batch = commits.durable() else { return }
            following.conflictsInARow = 0
            exactlyOnce.durable()
            publish(batch)
            for start in batch.effects { start() }
            if snapshotPolicy.take(at: publication.revision) {
                snapshots.save(publication.state, at: publication.revision)
            }
        case .failure(let error):
            logger.critical("journal write failed; the engine accepts no more actions", metadata: ["error": "\(error)"])
            // The error names the data directory: it stays in the log, and
            // clients get a reason without server paths.
            let reason = "the server could not store the action and accepts no more actions"
            let unknown = error.isCommitOutcomeUnknown ? commits.inFlight.map(Self.acceptedDispatches) ?? [] : []
            stopAccepting(reason: reason)
            guard var failed = commits.journalFailed(reason: reason) else { return }
            // Forget the outcomes decided in memory: a retry must not get an
            // ack for an action that is not durable (the journal answers for the rest).
            exactlyOnce.forgetUndurable()
            if !unknown.isEmpty { withholdAnswers(to: unknown, in: &failed) }
            publish(failed)
        }
    }

    /// The `(session, dispatch id)` of every accepted action of `batch`.
    static func acceptedDispatches(_ batch: PendingBatch) -> Set<UnansweredDispatch> {
        Set(batch.answers.compactMap { answer in
            if case .accepted = answer.outcome { return UnansweredDispatch(sessionID: answer.sessionID, actionID: answer.actionID) }
            return nil
        })
    }

    /// The journal lost its connection during `COMMIT`: neither `ack` nor
    /// `reject` would be true, so the answers are dropped and the sessions
    /// closed; their clients resend the same `(clientId, id)`, answered once.
    func withholdAnswers(to unknown: Set<UnansweredDispatch>, in batch: inout PendingBatch) {
        batch.answers.removeAll { unknown.contains(UnansweredDispatch(sessionID: $0.sessionID, actionID: $0.actionID)) }
        for sessionID in Set(unknown.map(\.sessionID)) {
            publication.withShard(of: sessionID) { shard in
                shard.sessions[sessionID]?.sink.close(
                    reason: "the server lost its storage while storing your action; reconnect and send it again")
            }
        }
    }

    /// Sends `answer` now, ahead of the batches waiting for the journal: a
    /// refusal that depends on no revision (like a `rate_limited` one), so
    /// that a client is not kept waiting behind a failing write.
    func answerAtOnce(_ answer: DispatchAnswer) {
        var batch = PendingBatch()
        batch.answers = [answer]
        publish(batch)
    }

    /// Hands `batch` to the fan-out, and its rejections to the devtools' log.
    func publish(_ batch: PendingBatch) {
        if !batch.rejections.isEmpty {
            shared.rejections.withLock { log in
                for rejection in batch.rejections { log.record(rejection) }
            }
        }
        if links != nil { routes.answered(batch.answers) }
        publication.publish(batch)
    }

    /// After the last batch: the final snapshot (unless the journal failed),
    /// then the journal is closed and whatever is still queued is ended.
    func finish() async {
        if commits.failure == nil, snapshotPolicy.take(at: publication.revision, force: true) {
            snapshots.save(publication.state, at: publication.revision)
        }
        await snapshots.finish()
        await publication.finish(logger: logger)
        do {
            try await journal.close()
        } catch {
            logger.error("closing the journal failed", metadata: ["error": "\(error)"])
        }
        for event in inbox.finish() { event.abandon() }
        logger.info("engine stopped", metadata: ["rev": "\(publication.revision)"])
    }
}

/// A dispatch whose answer is withheld: its session and its id.
struct UnansweredDispatch: Hashable {
    var sessionID: String
    var actionID: String
}
