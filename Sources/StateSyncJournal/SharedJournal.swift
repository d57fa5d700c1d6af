public import StateSyncCore

/// A ``Journal`` that other servers write too (a cluster on one PostgreSQL
/// store): what an engine needs beyond ``Journal`` to follow their writes.
///
/// ``Journal/append(_:completion:)`` is a compare-and-set on the store's head
/// revision: a batch behind it fails with ``JournalError/isRevisionGap`` (or
/// ``JournalError/isOutcomeConflict``) and writes nothing; the engine catches up,
/// calls ``caughtUp(through:)`` and sequences the actions again. Any pair may be
/// decided elsewhere: ``Journal/outcomePairs()`` is `nil`, and the journal, not
/// ``JournalBatch/forgottenClients``, decides by one rule which outcomes to keep.
public protocol SharedJournal: Journal {
    /// Starts telling `hint` the store's head revision when another writer may have
    /// moved it: only a reason to read entries (it may be late, repeated or stale).
    /// Called at most once, by the engine; `hint` must not block.
    func follow(hint: @escaping @Sendable (UInt64) -> Void)

    /// The caller has applied every entry through `revision` and has nothing pending:
    /// its next append continues after it (the compare-and-set still guards it).
    func caughtUp(through revision: UInt64)

    /// This server's share of presence in the cluster (see
    /// ``ClusterPresence``), or `nil` when the journal keeps none.
    var clusterPresence: (any ClusterPresence)? { get }

    /// The sessions in this store whose node left the cluster, for the server to
    /// journal their `sessionLeft` when it opens the store; empty when
    /// ``clusterPresence`` removes them itself.
    func sessionsOfDepartedNodes() async -> [SessionInfo]

    /// Starts telling `change` which node writes the store (``StoreWriter``)
    /// whenever that changes, the first answer as soon as it is known. Called
    /// at most once, by the engine; `change` must not block.
    func watchWriter(_ change: @escaping @Sendable (StoreWriter) -> Void)

    /// This server will write the store no more: it gives up the store's lease for
    /// good, so another server takes over at once. Called at most once, by the engine.
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
