import StateSyncJournal

/// A batch whose `COMMIT` outcome is unknown, kept until a catch-up settles
/// whether it landed: its entries, the effects to start if it did, and the
/// server's own commands to sequence again if not.
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

    /// Whether the batch landed, from the entries a catch-up read. The batch is
    /// one transaction, so the stored entry at its first revision tells: this
    /// batch's (bit for bit), another writer's, or absent.
    func settle(against missed: [JournalEntry], skippedSnapshot: Bool) -> Settlement {
        guard let first = entries.first else { return .lost }
        guard let stored = missed.first(where: { $0.revision == first.revision }) else {
            let endsBefore = missed.last.map { $0.revision < first.revision } ?? true
            return endsBefore && !skippedSnapshot ? .lost : .undecidable
        }
        return stored == first ? .landed : .lost
    }
}
