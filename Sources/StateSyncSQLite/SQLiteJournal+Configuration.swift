public import StateSyncJournal
extension SQLiteJournal {
    /// Where an ``SQLiteJournal`` lives, how much history it keeps, and what it does with a
    /// damaged journal and failing writes (outcomes follow the engine's ``OutcomeRetention``).
    ///
    /// ```swift
    /// var configuration = SQLiteJournal.Configuration(directory: "/var/lib/statesync")
    /// configuration.retention.revisions = 50_000
    /// ```
    public struct Configuration: Sendable, Hashable {
        /// The data directory, created (with its parents) when missing.
        /// Default `./statesync-data`, relative to the working directory, so
        /// that `statesync serve` in a project keeps its state beside it.
        public var directory: String
        /// The journal's file name inside ``directory``. Default
        /// `statesync.sqlite`; SQLite adds `-wal` and `-shm` files beside it.
        public var fileName: String
        /// How many entries and snapshots are kept behind the newest
        /// snapshot (see ``JournalRetention``; its defaults).
        public var retention: JournalRetention
        /// What opening does when the journal ends before the revision recorded as durable.
        /// Default ``DamagedJournalPolicy/refuse``: lost acknowledged history is never served silently.
        public var damagedJournal: DamagedJournalPolicy
        /// How long a failing write waits before its first retry, doubling up to
        /// ``maximumRetryDelay``. Default 50 ms.
        public var firstRetryDelay: Duration
        /// The longest wait between retries of a failing write. Default 2 s:
        /// writes resume at most ~2 s after space is freed, and a journal
        /// failing for hours tries no more than once every 2 s.
        public var maximumRetryDelay: Duration

        /// A configuration with the documented defaults.
        public init(
            directory: String = "./statesync-data",
            fileName: String = "statesync.sqlite",
            retention: JournalRetention = JournalRetention(),
            damagedJournal: DamagedJournalPolicy = .refuse,
            firstRetryDelay: Duration = .milliseconds(50),
            maximumRetryDelay: Duration = .seconds(2)
        ) {
            self.directory = directory
            self.fileName = fileName
            self.retention = retention
            self.damagedJournal = damagedJournal
            self.firstRetryDelay = max(.milliseconds(1), firstRetryDelay)
            self.maximumRetryDelay = max(self.firstRetryDelay, maximumRetryDelay)
        }
    }
}
