extension SQLiteJournal {
    /// Where an ``SQLiteJournal`` lives and how much history it keeps.
    ///
    /// ```swift
    /// var configuration = SQLiteJournal.Configuration(directory: "/var/lib/statesync")
    /// configuration.outcomeRetention = 1_000_000
    /// ```
    public struct Configuration: Sendable, Hashable {
        /// The data directory, created (with its parents) when missing.
        /// Default `./statesync-data`, relative to the working directory, so
        /// that `statesync serve` in a project keeps its state beside it.
        public var directory: String
        /// The journal's file name inside ``directory``. Default
        /// `statesync.sqlite`; SQLite adds `-wal` and `-shm` files beside it.
        public var fileName: String
        /// How many `(clientId, actionId)` outcomes are remembered: the most
        /// recently recorded ones. Default 100,000: at ~100 bytes a row that
        /// is ~10 MB on disk, and it covers a client retrying within the last
        /// 100,000 dispatches (minutes at full speed, days at human speed).
        /// A pair older than that is unknown and would be applied again.
        public var outcomeRetention: Int
        /// How many snapshots are kept: the most recent ones. Default 3: the
        /// latest for recovery plus two older ones for time travel and in
        /// case the caller wants to compare; each is a full state.
        public var snapshotsKept: Int

        /// A configuration with the documented defaults.
        public init(
            directory: String = "./statesync-data",
            fileName: String = "statesync.sqlite",
            outcomeRetention: Int = 100_000,
            snapshotsKept: Int = 3
        ) {
            self.directory = directory
            self.fileName = fileName
            self.outcomeRetention = max(1, outcomeRetention)
            self.snapshotsKept = max(1, snapshotsKept)
        }
    }
}
