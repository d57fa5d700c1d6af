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
    /// Recent published states kept to answer `subscribe … since` and slow
    /// consumers with a patch, not a snapshot. Default 1,024; revisions share
    /// unchanged storage, so each costs about the size of its change.
    public var historyWindow: Int
    /// The most object members and array elements the history may hold beyond
    /// what revisions share; the oldest leave first. Default 1,000,000 (tens of
    /// MB), so large copied containers cannot fill memory with ``historyWindow``.
    public var historyBudget: Int
    /// Outcomes of `(clientId, actionId)` pairs kept in memory; older ones
    /// are read back from the journal. Default 100,000 (~10 MB): covers the
    /// retries of many thousands of clients without a journal read.
    public var rememberedOutcomes: Int
    /// Which outcomes are remembered at all, per clientId (the journal keeps
    /// them). Default: ``OutcomeRetention``'s (1,000 per clientId, 10
    /// minutes, 10,000 clientIds).
    public var outcomeRetention: OutcomeRetention
    /// Recent rejections kept in memory for devtools (the journal stores only
    /// accepted actions). Default 1,000 (at most ~4 MB); 0 keeps none.
    public var rejectionLogCapacity: Int
    /// The largest the state may grow to, in estimated bytes of its JSON
    /// (``StateMirror``): an action growing it further is rejected
    /// `state_too_large`; shrinking ones are always taken. Default 64 MiB.
    public var maxStateBytes: Int
    /// Answers held back for one slow session; past it, or ``maxDeferredBytes``,
    /// the session is closed (1008), since it cannot hear an error ahead of what
    /// it has not read. Default 1,024.
    public var maxDeferredAnswers: Int
    /// The most bytes of answers held back for one slow session (a held `get`
    /// holds no value: it is read at the drain). Default 1 MiB.
    public var maxDeferredBytes: Int
    /// Sessions' requests that may wait in the engine's queue; a session finding
    /// it full stops reading its socket instead of growing memory. Default 16,384.
    public var maxQueuedRequests: Int
    /// How long a `subscribe … since` a revision this node has not published
    /// waits for it before it is answered `behind`. Default 2 s, above the 1 s
    /// poll interval of following another node's writes.
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
