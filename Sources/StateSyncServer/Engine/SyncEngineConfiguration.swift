public import Foundation

/// How a ``SyncEngine`` batches, remembers and keeps history. Every field
/// has a default; `SyncEngineConfiguration()` suits a single-node server.
///
/// ```swift
/// let configuration = SyncEngineConfiguration(snapshotEvery: 1_000, historyWindow: 1_024)
/// ```
public struct SyncEngineConfiguration: Sendable {
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
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.snapshotEvery = Swift.max(1, snapshotEvery)
        self.historyWindow = Swift.max(1, historyWindow)
        self.historyBudget = Swift.max(0, historyBudget)
        self.rememberedOutcomes = Swift.max(1, rememberedOutcomes)
        self.outcomeRetention = outcomeRetention
        self.rejectionLogCapacity = Swift.max(0, rejectionLogCapacity)
        self.clock = clock
    }
}
