extension SQLiteJournal {
    /// Where an ``SQLiteJournal`` lives and how much history it keeps. (How
    /// many outcomes it remembers is the engine's ``OutcomeRetention``,
    /// carried out through each ``JournalBatch``.)
    ///
    /// ```swift
    /// var configuration = SQLiteJournal.Configuration(directory: "/var/lib/statesync")
    /// configuration.snapshotsKept = 5
    /// ```
    public struct Configuration: Sendable, Hashable {
        /// The data directory, created (with its parents) when missing.
        /// Default `./statesync-data`, relative to the working directory, so
        /// that `statesync serve` in a project keeps its state beside it.
        public var directory: String
        /// The journal's file name inside ``directory``. Default
        /// `statesync.sqlite`; SQLite adds `-wal` and `-shm` files beside it.
        public var fileName: String
        /// How many snapshots are kept: the most recent ones. Default 3: the
        /// latest for recovery plus two older ones for time travel and in
        /// case the caller wants to compare; each is a full state.
        public var snapshotsKept: Int

        /// A configuration with the documented defaults.
        public init(
            directory: String = "./statesync-data",
            fileName: String = "statesync.sqlite",
            snapshotsKept: Int = 3
        ) {
            self.directory = directory
            self.fileName = fileName
            self.snapshotsKept = max(1, snapshotsKept)
        }
    }
}
