import StateSyncCore
import StateSyncProtocol

/// What a ``StateSyncClient`` holds for one store: mirror, subscriptions, waiting requests, epoch, revision and
/// optimistic mirrors. A class only so the client's actor can change it in place; it never leaves the actor.
final class StoreState {
    /// The store's name.
    let name: StoreName
    /// Writes this store's client messages (`"store"` unless it is `main`).
    let encoder: MessageEncoder
    /// The store's epoch: from the welcome for `main`, from its snapshots and
    /// values for the others; `nil` until known.
    var epoch: String?
    /// The newest revision heard of in this store, observable (``ClientStore/observeRev()``).
    let revision = LocalStore<UInt64>(initialState: 0)
    /// The mirror: a JSON document holding the value of every subscription at its path.
    let mirror: LocalStore<JSONValue>
    /// The mirror's document as the client last wrote it. The store's own
    /// copy can lag by an update while an observer registers on another
    /// thread, so the client reads this one.
    var document: JSONValue = .object([:])
    /// The sequences of ``StateSyncClient/changes(at:)``.
    let changeFeeds = ChangeFeeds()
    var subscriptions = MirrorSubscriptions()
    var pending = PendingRequests()
    /// The ids of the dispatches sent on the current connection.
    var sentDispatches: Set<String> = []
    /// The ids of the unanswered dispatches ever sent (on any connection, or
    /// by an earlier process: restored from the outbox): after a reconnect
    /// they may have been applied already.
    var everSent: Set<String> = []
    /// The unanswered dispatches sent on a connection that ended (or by an
    /// earlier process): the send may have been applied, so a refusal of a
    /// later send as `unavailable` is not their outcome (``StateSyncClient/retriedInDoubt(_:code:in:)``).
    var inDoubt: Set<String> = []
    /// The pending re-send of in-doubt dispatches refused `unavailable`, and
    /// how many such rounds ran in a row (its backoff attempt).
    var inDoubtRetry: Task<Void, Never>?
    var inDoubtRounds = 0
    /// The optimistic mirrors to tell about dispatches, patches and answers.
    var optimisticSinks: [WeakOptimisticSink] = []
    /// Shows a patch's predictions if no answer follows it soon.
    var predictionGrace: Task<Void, Never>?
    /// The wire id of the `get` that learns this store's epoch after a
    /// reconnect, before its subscriptions resume (see ``StateSyncClient/resume(_:)``).
    var epochProbe: String?

    /// The state of store `name`, whose mirror is `mirror`.
    init(name: StoreName, mirror: LocalStore<JSONValue> = LocalStore(initialState: .object([:]))) {
        self.name = name
        self.encoder = MessageEncoder(store: name)
        self.mirror = mirror
    }

    /// The newest revision heard of in this store.
    var rev: UInt64 { revision.state }

    /// Raises ``rev`` to `rev` when it is newer; with `reset`, sets it (a new epoch).
    func heard(rev: UInt64, reset: Bool = false) {
        guard reset || rev > self.rev else { return }
        revision.performStateUpdate { $0 = reset ? rev : max($0, rev) }
    }

    /// The optimistic mirrors still in use.
    var liveOptimisticSinks: [any OptimisticSink] {
        optimisticSinks.compactMap(\.sink)
    }

    /// Fails every waiting caller with `error` and ends the change sequences.
    func end(with error: any Error) {
        pending.failAll(with: error)
        changeFeeds.finishAll()
        predictionGrace?.cancel()
        inDoubtRetry?.cancel()
    }
}
