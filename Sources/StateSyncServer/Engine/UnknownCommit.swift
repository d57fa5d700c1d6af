import StateSyncJournal

/// A batch whose `COMMIT` outcome is unknown (the connection to the shared
/// journal was lost during it), kept until the engine's catch-up reads the
/// store and settles whether it landed: its entries, the effects to start
/// if they did, and the server's own commands to sequence again if they
/// did not (a client's dispatch is sent again by its client).
struct UnknownCommit {
    /// What the store says of the batch.
    enum Settlement: Equatable {
        /// Its entries are stored: its effects run now.
        case landed
        /// Nothing of it is stored: its commands are sequenced again.
        case lost
        /// Retention dropped the entries at its revisions before they were read.
        case undecidable
    }

    /// The batch's entries, at the revisions after the published one.
    let entries: [JournalEntry]
    /// Starts the effects of its commands, in order.
    let effects: [@Sendable () -> Void]
    /// Its commands of the server's own (presence, effects' follow-ups), in order.
    let commands: [BatchInput]

    /// Keeps what settling `batch` needs.
    init(_ batch: PendingBatch) {
        entries = batch.journal.entries
        effects = batch.effects
        commands = batch.inputs.filter { if case .command = $0 { true } else { false } }
    }

    /// Whether the batch landed, from what a catch-up read: `missed`, the
    /// entries after the published revision (after a snapshot, when
    /// `skippedSnapshot`). The batch is one transaction, so its first entry
    /// tells: the stored entry at that revision is this batch's (same
    /// action, `Meta` and id, bit for bit), another writer's, or absent.
    func settle(against missed: [JournalEntry], skippedSnapshot: Bool) -> Settlement {
        guard let first = entries.first else { return .lost }
        guard let stored = missed.first(where: { $0.revision == first.revision }) else {
            let endsBefore = missed.last.map { $0.revision < first.revision } ?? true
            return endsBefore && !skippedSnapshot ? .lost : .undecidable
        }
        return stored == first ? .landed : .lost
    }
}
