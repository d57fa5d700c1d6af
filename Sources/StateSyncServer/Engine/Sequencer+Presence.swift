import Logging
import StateSyncCore
import StateSyncJournal
import Synchronization

extension Sequencer {
    /// Reduces `sessionJoined` again, in id order, for each announced session not
    /// in `present` (see ``ClusterPresence``); returns how many.
    func announceSessions(except present: Set<String>) -> Int {
        let missing = publication.sessions.values
            .filter { $0.announced && !present.contains($0.info.id) }
            .sorted { $0.info.id < $1.info.id }
        for session in missing {
            applyServerCommand(.sessionJoined(session.info), clientID: session.clientID)
        }
        if !missing.isEmpty {
            logger.info("announced this node's live sessions again", metadata: ["sessions": "\(missing.count)"])
        }
        return missing.count
    }

    /// Counts in ``SyncEngine/liveSessionsRemovedElsewhere`` the sessions live
    /// here that another node's `entries` left, so presence announces them again.
    func countLiveSessionsRemoved(by entries: [JournalEntry]) {
        var removed = 0
        for entry in entries where entry.actionID == nil {
            guard case .sessionLeft(let session)? = try? SessionCommandCoding.decode(entry.action, as: App.Action.self),
                  publication.sessions[session.id]?.announced == true
            else { continue }
            removed += 1
        }
        guard removed > 0 else { return }
        shared.liveSessionsRemovedElsewhere.add(removed, ordering: .relaxed)
        logger.warning("another node removed sessions that are connected here; announcing them again", metadata: [
            "sessions": "\(removed)"])
    }
}
