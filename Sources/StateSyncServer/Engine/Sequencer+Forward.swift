import CoreMetrics
import Logging
import StateSyncCore
import StateSyncJournal
import StateSyncProtocol
import Synchronization

/// What the sequencer keeps of the dispatches it forwarded to the store's
/// writer (a cluster whose lease another node holds, ``ClusterLinks``).
struct ForwardState {
    /// The writer's acks, each sent once its revision is published here
    /// (so that the session's next read on this node sees its action).
    var acks: [(revision: UInt64, answer: DispatchAnswer)] = []
    /// The sessions that forwarded: the writers hear when they leave.
    var sessions: Set<String> = []
}

/// What ``Sequencer/take(_:)`` did with a dispatch.
enum RouteTaken {
    /// Nothing: sequence it here.
    case sequenceHere
    /// Sent it to the store's writer.
    case forwarded
    /// Nothing yet: its session has dispatches on the other route, which it must not overtake.
    case waits
}

/// Where a dispatch may go.
enum DispatchRoute: Equatable {
    /// To the store's writer when another node writes the store, else sequenced here.
    case mayForward
    /// Sequenced here after its forward got no answer: the writer may still
    /// store it, so a refusal saying nothing was applied (`unavailable`)
    /// would be untrue; its session is closed instead.
    case afterUnansweredForward
    /// Sequenced here because the writer refused it unapplied: it serves an
    /// older app schema version than this node's (a rolling upgrade).
    case writerIsOlder
}

/// Forwarding: in a cluster the lease holder writes each store, and other
/// nodes send it dispatches that have an exactly-once key, so one whose link
/// closed unanswered can be sequenced here without applying it twice.
extension Sequencer {
    /// Forwards `dispatch` to the store's writer, or says it must wait or be
    /// sequenced here. A session forwarded here is never sent on: the
    /// compare-and-set makes writing it here safe.
    func take(_ dispatch: Dispatch) async -> RouteTaken {
        guard links != nil, dispatch.key != nil, let prefix = ownSessionPrefix, dispatch.session.info.id.hasPrefix(prefix) else {
            return .sequenceHere
        }
        switch routes.admit(dispatch.id, of: dispatch.session.info.id, wanting: writerAddress.map { .writer(address: $0) } ?? .here) {
        case .sequenceHere:
            return .sequenceHere
        case let .forward(address, link):
            await forward(dispatch, to: address, onLink: link)
            return .forwarded
        case .wait:
            return .waits
        }
    }

    /// Whether the round's dispatches go to another node (their outcomes
    /// need not be read here first).
    var forwardsDispatches: Bool { writerAddress != nil }

    /// The address of the node that writes the store, when this node has
    /// links and another node holds the lease and said where it is.
    private var writerAddress: String? {
        guard links != nil, case .other(_, let address?)? = shared.writer.withLock({ $0 }) else { return nil }
        return address
    }

    /// Sends `dispatch` to the writer at `address` on link `link`; the answer
    /// comes back as ``EngineEvent/forwardAnswered(sessionID:id:action:received:outcome:)``.
    private func forward(_ dispatch: Dispatch, to address: String, onLink link: UInt64?) async {
        guard let links, let clientID = dispatch.session.clientID else { return }
        let sessionID = dispatch.session.info.id
        ownWrites.forwarding(by: sessionID)
        forwards.sessions.insert(sessionID)
        metrics.dispatchesForwarded.increment()
        let forwarded = ForwardedDispatch(
            store: store, session: dispatch.session.info, clientID: clientID, role: dispatch.session.role, id: dispatch.id,
            action: dispatch.action, schemaVersion: App.schemaVersion)
        let (inbox, id, action, received) = (inbox, dispatch.id, dispatch.action, dispatch.received)
        let sending = links.forward(forwarded, to: address, onLink: link) { outcome in
            // Refused once the engine stopped: its sessions are closing.
            _ = inbox.post(.forwardAnswered(sessionID: sessionID, id: id, action: action, received: received, outcome: outcome))
        }
        switch sending {
        case .sent(let link):
            routes.forwarded(id, of: sessionID, to: address, onLink: link)
        case .refused(let reason):
            // Counted as sent, then failed at once: it takes its place among the session's forwards.
            routes.forwarded(id, of: sessionID, to: address, onLink: link ?? 0)
            await forwardAnswered(sessionID: sessionID, id: id, action: action, received: received, outcome: .failed(reason))
        }
    }

    /// The writer answered a forwarded dispatch, or its link closed first.
    func forwardAnswered(
        sessionID: String, id: String, action: JSONObject, received: ContinuousClock.Instant, outcome: ForwardOutcome
    ) async {
        guard publication.sessions[sessionID] != nil else { return }   // it left: nobody to answer
        // The session's forwards that got no answer are sequenced here before its reads count this answer.
        switch outcome {
        case .accepted(let revision):
            holdAck(
                DispatchAnswer(
                    sessionID: sessionID, actionID: id, outcome: .accepted(revision: revision), received: received, isDuplicate: false),
                of: sessionID, until: revision)
            await sequenceHere(routes.writerAnswered(id, of: sessionID), of: sessionID)
            ownWrites.forwarded(revision, by: sessionID)
        case .rejected(RejectCode.schemaTooNew.rawValue, let reason):
            // Not applied there: this node writes it, at its own version (the writer stops serving the store once it reads it).
            let unanswered = DispatchRoutes.Unanswered(id: id, action: action, received: received, route: .writerIsOlder, reason: reason)
            await sequenceHere(routes.noAnswer(unanswered, of: sessionID), of: sessionID)
            ownWrites.forwarded(nil, by: sessionID)
        case let .rejected(code, message):
            answerAtOnce(DispatchAnswer(
                sessionID: sessionID, actionID: id, outcome: .rejected(code: code, message: message), received: received,
                isDuplicate: false))
            await sequenceHere(routes.writerAnswered(id, of: sessionID), of: sessionID)
            ownWrites.forwarded(nil, by: sessionID)
        case .failed(let reason):
            let unanswered = DispatchRoutes.Unanswered(
                id: id, action: action, received: received, route: .afterUnansweredForward, reason: reason)
            await sequenceHere(routes.noAnswer(unanswered, of: sessionID), of: sessionID)
            ownWrites.forwarded(nil, by: sessionID)
        }
    }

    /// Sequences here, in the order they were sent, forwarded dispatches of
    /// `sessionID` that the writer did not apply.
    private func sequenceHere(_ dispatches: [DispatchRoutes.Unanswered], of sessionID: String) async {
        for unanswered in dispatches {
            if unanswered.route == .afterUnansweredForward, journal.writeFault != nil || commits.failure != nil {
                closeUnansweredForward(of: sessionID, id: unanswered.id, reason: unanswered.reason)
                continue
            }
            let why = unanswered.route == .writerIsOlder ? "the writer serves an older app schema version" : "a forwarded dispatch got no answer"
            logger.notice("\(why); sequencing it here", metadata: [
                "session": "\(sessionID)", "id": "\(unanswered.id)", "reason": "\(unanswered.reason)"])
            await dispatch(unanswered.action, id: unanswered.id, from: sessionID, received: unanswered.received, route: unanswered.route)
        }
    }

    /// A forwarded dispatch got no answer and cannot be written here; the writer
    /// may still store it, so the session is closed and its client resends.
    func closeUnansweredForward(of sessionID: String, id: String, reason: String) {
        logger.notice("a forwarded dispatch got no answer and cannot be written here; closing its session", metadata: [
            "session": "\(sessionID)", "id": "\(id)", "reason": "\(reason)"])
        publication.withShard(of: sessionID) { shard in
            shard.sessions[sessionID]?.sink.close(
                reason: "the server could not tell whether your action was stored; reconnect and send it again")
        }
    }

    /// Holds `answer`, an ack at `revision` another node wrote, until this node
    /// has published that revision, so the session's next read sees its action.
    func holdAck(_ answer: DispatchAnswer, of sessionID: String, until revision: UInt64) {
        following.hintedHead = max(following.hintedHead, revision)
        forwards.acks.append((revision, answer))
    }

    /// Sends the writer's acks whose revision this node has published.
    func releaseForwardedAcks() {
        guard !forwards.acks.isEmpty else { return }
        let published = publication.revision
        var batch = PendingBatch()
        batch.answers = forwards.acks.filter { $0.revision <= published }.map(\.answer)
        guard !batch.answers.isEmpty else { return }
        forwards.acks.removeAll { $0.revision <= published }
        publish(batch)
    }

    /// `sessionID` left: the writers forget it too.
    func forwardingSessionLeft(_ sessionID: String) {
        routes.left(sessionID)
        guard forwards.sessions.remove(sessionID) != nil else { return }
        links?.left(sessionID, store: store)
    }
}
