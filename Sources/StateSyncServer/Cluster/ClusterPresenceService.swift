import ServiceLifecycle
import StateSyncCore
import StateSyncJournal

/// A node's share of presence in a cluster (``ClusterPresence``) as a
/// `Service`; at shutdown it journals `sessionLeft` for the node's own
/// sessions before the engine writes its last batch.
struct ClusterPresenceService<App: StateSyncApp>: Service {
    let presence: any ClusterPresence
    let engine: SyncEngine<App>

    func run() async {
        let (presence, engine) = (presence, engine)
        await cancelWhenGracefulShutdown {
            await presence.run(
                removingSessions: { await engine.removeSessions($0) },
                announcingSessions: { await engine.announceSessions(except: $0) },
                removedElsewhere: { engine.liveSessionsRemovedElsewhere })
        }
        await engine.removeSessions(await presence.ownSessions())
    }
}
