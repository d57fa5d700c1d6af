import CoreMetrics
import DequeModule
import Logging
import StateSyncCore
import StateSyncProtocol

/// A joined session as the engine tracks it.
struct SessionRecord {
    /// Its id and name.
    var info: SessionInfo
    /// The `clientId` it gave in `hello`, scoping its action ids.
    var clientID: String?
    /// What it may do.
    var role: Role
    /// Where its messages go.
    var sink: any SessionSink
    /// Whether its joining and leaving are journaled (presence): `false`
    /// for the short-lived sessions of HTTP requests.
    var announced = true
    /// Its open subscriptions: id to path.
    var subscriptions: SmallDictionary<String, JSONPointer> = [:]
    /// Whether it is a slow consumer: found not writable and not yet drained.
    var isSlow = false
    /// Answers held back while it is slow, sent in order after its coalesced patches.
    var deferred: Deque<DeferredAnswer> = []
    /// The ``DeferredAnswer/bytes`` of ``deferred``.
    var deferredBytes = 0
    /// Whether the engine gave up on it for holding back too much
    /// (``SyncEngineConfiguration/maxDeferredAnswers``): its sink was asked
    /// to close, and it is sent nothing more.
    var isAbandoned = false
}
