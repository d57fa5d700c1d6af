import Logging
import StateSyncCore

extension Sequencer {
    /// Reduces `sessionJoined` again for each announced session whose id
    /// is not in `present`, in id order, as its join did (with its
    /// `clientId`); returns how many. In a cluster, these are the live
    /// sessions whose presence another node removed while it held this one
    /// dead (see ``ClusterPresence``).
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
}
