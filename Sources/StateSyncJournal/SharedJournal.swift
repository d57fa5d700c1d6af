public import StateSyncCore

/// A ``Journal`` that other servers write too (a cluster on one PostgreSQL
/// store): what an engine needs beyond ``Journal`` to follow their writes.
///
/// The revision order is decided by the storage. ``Journal/append(_:completion:)``
/// is a compare-and-set on the store's head revision in the same transaction
/// as the inserts: a batch whose first revision does not follow the head
/// fails with ``JournalError/isRevisionGap`` (or, when another server had
/// decided one of its pairs, ``JournalError/isOutcomeConflict``) and writes
/// nothing. The engine then catches up by reading
/// ``Journal/entries(from:through:)`` past its revision (replayed through the
/// reducer alone, as in recovery), says so with ``caughtUp(through:)``, and
/// sequences the refused actions again. ``follow(hint:)`` tells it when
/// others wrote, so that it follows them between its own writes too. Reads
/// see only committed history; the epoch belongs to the store, not to a
/// server. Such a journal never lists its outcome pairs
/// (``Journal/outcomePairs()`` returns `nil`): any pair may be decided
/// elsewhere, so the engine asks the journal about every pair memory does
/// not hold. Nor does it forget the clientIds of a batch's
/// ``JournalBatch/forgottenClients`` (one server's view, in which another
/// server's clients may look quiet): which clientIds' outcomes it keeps
/// it decides by one rule over what it stores, the same for every server
/// (PostgreSQL: `PostgresOutcomeClients`), and the engine sends none.
public protocol SharedJournal: Journal {
    /// Starts telling `hint` the store's head revision whenever this journal
    /// learns that another writer may have moved it past
    /// ``Journal/lastRevision`` (a notification from the database, or a
    /// periodic poll). A hint is only a reason to read
    /// ``Journal/entries(from:through:)``: it may be late, repeated or
    /// already stale. Called at most once, by the engine; `hint` must not
    /// block.
    func follow(hint: @escaping @Sendable (UInt64) -> Void)

    /// The caller has applied every entry through `revision`, other
    /// writers' included, and nothing of its own is pending: its next
    /// ``Journal/append(_:completion:)`` continues after `revision`. The
    /// compare-and-set still refuses the batch if the store moved on
    /// meanwhile.
    func caughtUp(through revision: UInt64)

    /// This server's share of presence in the cluster (see
    /// ``ClusterPresence``), or `nil` when the journal keeps none.
    var clusterPresence: (any ClusterPresence)? { get }

    /// The sessions present in this store whose node is no longer in the
    /// cluster (it stopped, or died, while the store was closed on the
    /// live nodes): the server journals their `sessionLeft` when it opens
    /// the store. Empty when ``clusterPresence`` removes them itself, as
    /// it does for the store it keeps the node's heartbeat in.
    func sessionsOfDepartedNodes() async -> [SessionInfo]

    /// Starts telling `change` which node writes the store (``StoreWriter``)
    /// whenever that changes, the first answer as soon as it is known. Called
    /// at most once, by the engine; `change` must not block.
    func watchWriter(_ change: @escaping @Sendable (StoreWriter) -> Void)

    /// This server will write the store no more (its engine stopped
    /// accepting actions): it gives up the store's lease, and takes it no
    /// more, so that another server writes the store at once instead of
    /// answering every forwarded dispatch with a failure. Called at most
    /// once, by the engine.
    func stopWriting()
}

extension SharedJournal {
    /// None: a journal whose ``SharedJournal/clusterPresence`` removes every
    /// departed node's sessions, or keeps no presence.
    public func sessionsOfDepartedNodes() async -> [SessionInfo] { [] }

    /// Never called: a journal that keeps no leases leaves the writer
    /// ``StoreWriter/unknown``, and every node writes for its own sessions.
    public func watchWriter(_ change: @escaping @Sendable (StoreWriter) -> Void) {}

    /// Nothing to give up: the journal keeps no leases.
    public func stopWriting() {}
}
