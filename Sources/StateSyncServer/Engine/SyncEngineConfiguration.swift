public import Foundation
public import StateSyncJournal
public import StateSyncProtocol

/// How a ``SyncEngine`` batches, remembers and keeps history. Every field
/// has a default; `SyncEngineConfiguration()` suits a single-node server.
///
/// ```swift
/// let configuration = SyncEngineConfiguration(snapshotEvery: 1_000, historyWindow: 1_024)
/// ```
public struct SyncEngineConfiguration: Sendable {
    /// The store this engine serves, named in its messages unless it is
    /// ``StoreName/main`` (a server of many stores runs one engine per store).
    public var store: StoreName = .main
    /// This node's links to the writers of the stores it does not write, in
    /// a cluster whose nodes forward dispatches (``ClusterLinks``); `nil`
    /// writes every dispatch here. The server sets it.
    var links: ClusterLinks?
    /// Take a full snapshot after this many revisions (and at shutdown).
    /// Default 1,000: recovery replays at most ~1,000 actions (milliseconds)
    /// while a snapshot of a 1 MB state costs ~1 ms per 1,000 actions.
    public var snapshotEvery: UInt64
    /// How many recent published revisions' JSON states the engine keeps to
    /// answer `subscribe … since` and slow consumers with a patch instead of
    /// a snapshot (one state per published batch). Default 1,024: revisions
    /// share unchanged storage, so this costs roughly 1,024 times the size of
    /// an average change, and covers a client that was away for ~1,000 actions.
    public var historyWindow: Int
    /// The most object members and array elements the history's revisions
    /// may hold beyond what they share: each revision is charged the size of
    /// the containers its change copied, and the oldest revisions leave
    /// first. Default 1,000,000 (tens of MB): changes of small containers keep
    /// the whole ``historyWindow``, while with 10,000 connected sessions a
    /// presence change copies a 10,000-member object, so about 100 such
    /// revisions are kept instead of 1,024 copies (~400 MB).
    public var historyBudget: Int
    /// Outcomes of `(clientId, actionId)` pairs kept in memory; older ones
    /// are read back from the journal. Default 100,000 (~10 MB): covers the
    /// retries of many thousands of clients without a journal read.
    public var rememberedOutcomes: Int
    /// Which outcomes are remembered at all, per clientId (the journal keeps
    /// them). Default: ``OutcomeRetention``'s (1,000 per clientId, 10
    /// minutes, 10,000 clientIds).
    public var outcomeRetention: OutcomeRetention
    /// How many recent rejections the engine keeps in memory for devtools
    /// (the journal stores only accepted actions). Default 1,000: a few
    /// minutes of a misbehaving client, at most ~4 MB (actions over 4 KiB
    /// are kept as their type and size); 0 keeps none.
    public var rejectionLogCapacity: Int
    /// The largest the state may grow to, in bytes of its JSON (an estimate
    /// kept up to date from each change, see ``StateMirror``): an action that
    /// would grow it further is rejected `state_too_large` and changes
    /// nothing; actions that do not grow it are always taken. Default 64 MiB:
    /// far above a shared board or form (kilobytes to a few megabytes), yet
    /// every subscriber's first snapshot of it stays within a second or two
    /// of transfer, and a history of revisions sharing it fits in memory.
    public var maxStateBytes: Int
    /// How many answers (`ack`, `reject`, `value`, `unsubscribed`) the engine
    /// holds back for one slow session, which does not read what it was sent.
    /// Past it, or past ``maxDeferredBytes``, the session is closed (1008):
    /// it cannot hear an error ahead of what it has not read, and its
    /// re-sent dispatches are answered exactly once after it reconnects.
    /// Default 1,024: far more requests than a client waits on at once.
    public var maxDeferredAnswers: Int
    /// The most bytes of answers held back for one slow session (ids, paths
    /// and encoded acks and rejects; a held-back `get` is answered when
    /// the session drains, with the value at that time, so it holds no
    /// value). Default 1 MiB: the session's own outbound budget again.
    public var maxDeferredBytes: Int
    /// How many requests of sessions (WebSocket messages, HTTP API calls)
    /// may wait in the engine's queue. A session whose request finds it full
    /// waits before reading its next message, so its socket stops being
    /// read instead of the server's memory growing. Default 16,384: many
    /// rounds of group commit at 10,000 connected clients, a few MB.
    public var maxQueuedRequests: Int
    /// How long a `subscribe … since` a revision this node has not
    /// published yet waits for it (a client that failed over from a node
    /// ahead of this one, on a shared journal) before it is answered
    /// `behind`. Default 2 s: following another node's writes takes
    /// milliseconds when notifications arrive and at most a poll interval
    /// (1 s) when they do not.
    public var catchUpTimeout: Duration = .seconds(2)
    /// The clock that fixes `Meta.time` when an action is accepted.
    /// Default: the system clock (`Date()`); tests inject a fixed one.
    public var clock: @Sendable () -> Date

    /// A configuration; every argument has the default documented on its field.
    public init(
        snapshotEvery: UInt64 = 1_000,
        historyWindow: Int = 1_024,
        historyBudget: Int = 1_000_000,
        rememberedOutcomes: Int = 100_000,
        outcomeRetention: OutcomeRetention = OutcomeRetention(),
        rejectionLogCapacity: Int = 1_000,
        maxStateBytes: Int = 64 << 20,
        maxDeferredAnswers: Int = 1_024,
        maxDeferredBytes: Int = 1 << 20,
        maxQueuedRequests: Int = 16_384,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.snapshotEvery = Swift.max(1, snapshotEvery)
        self.historyWindow = Swift.max(1, historyWindow)
        self.historyBudget = Swift.max(0, historyBudget)
        self.rememberedOutcomes = Swift.max(1, rememberedOutcomes)
        self.outcomeRetention = outcomeRetention
        self.rejectionLogCapacity = Swift.max(0, rejectionLogCapacity)
        self.maxStateBytes = Swift.max(1, maxStateBytes)
        self.maxDeferredAnswers = Swift.max(1, maxDeferredAnswers)
        self.maxDeferredBytes = Swift.max(1, maxDeferredBytes)
        self.maxQueuedRequests = Swift.max(1, maxQueuedRequests)
        self.clock = clock
    }
}
