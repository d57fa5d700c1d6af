import StateSyncJournal
/// What opening an ``SQLiteJournal`` does when it ends before the revision recorded as
/// durable (acknowledged history lost). `statesync serve --on-damaged-journal refuse|new-epoch`.
public enum DamagedJournalPolicy: String, Sendable, Hashable, CaseIterable {
    /// Do not open: ``JournalError/isDamaged``, with what was found. The
    /// default, since serving the older history under the same epoch would
    /// tell resuming clients that nothing changed.
    case refuse
    /// Open what is left under a **new epoch**, logged as `critical`: every
    /// client sees the new epoch, drops its mirror and re-subscribes, so no
    /// client keeps state the server no longer has.
    case newEpoch = "new-epoch"
}
