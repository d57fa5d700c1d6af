import StateSyncJournal
import StateSyncSQLite
import StateSyncServer

extension ServeConfiguration {
    /// Where the journal and snapshots live and how much history they keep
    /// (the file's `storage:` section).
    struct Storage: Sendable, Equatable {
        /// The data directory: the SQLite journal and snapshots, created when
        /// missing. Default `./statesync-data`. Unused in memory or with PostgreSQL.
        var data = ServeConfiguration.serverDefaults.storage.directoryPath ?? "./statesync-data"
        /// Keep the state in memory only (nothing is stored). Default `false`.
        var memory = false
        /// The journal in PostgreSQL (`postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`):
        /// a cluster node. Default none. Its password is a secret.
        var postgresURL: String?
        /// A full snapshot every this many revisions (and at shutdown). Default 1000.
        var snapshotEvery = Int(SyncEngineConfiguration().snapshotEvery)
        /// Journal revisions kept behind the newest snapshot. Default 10,000.
        var journalRetention = Int(JournalRetention().revisions)
        /// Bytes of journaled actions kept behind the newest snapshot. Default 16 MiB.
        var journalRetentionBytes = JournalRetention().bytes
        /// Snapshots kept older than the retained journal, sparser with age. Default 8.
        var olderSnapshots = JournalRetention().olderSnapshots
        /// What to do with a journal that lost acknowledged revisions. Default
        /// `refuse` (see ``DamagedJournalPolicy``).
        var onDamagedJournal = DamagedJournalPolicy.refuse

        /// The settings of this section.
        enum Keys {
            static let data = Setting<String>("storage.data", flag: "--data")
            static let memory = Setting<Bool>("storage.memory", flag: "--memory")
            static let postgresURL = Setting<String>("storage.postgresURL", flag: "--postgres", secret: SecretMask.postgresURL)
            static let snapshotEvery = Setting<Int>("storage.snapshotEvery", flag: "--snapshot-every")
            static let journalRetention = Setting<Int>("storage.journalRetention", flag: "--journal-retention")
            static let journalRetentionBytes = Setting<Int>("storage.journalRetentionBytes", flag: "--journal-retention-bytes")
            static let olderSnapshots = Setting<Int>("storage.olderSnapshots", flag: "--older-snapshots")
            static let onDamagedJournal = Setting<String>("storage.onDamagedJournal", flag: "--on-damaged-journal")
        }

        /// The defaults.
        init() {}

        /// The section as `settings` give it, each value checked. `memory` and `postgresURL` given at
        /// the same level contradict each other; at different levels the higher one wins.
        init(reading settings: inout SettingsReader) throws(ConfigurationError) {
            try settings.read(Keys.data, into: &data)
            let memory = try settings.given(Keys.memory)
            let postgres = try settings.given(Keys.postgresURL)
            if let memory, memory.value, let postgres {
                guard memory.origin.precedence != postgres.origin.precedence else {
                    throw .excludeEachOther(memory.origin, postgres.origin)
                }
                if memory.origin.precedence > postgres.origin.precedence { self.memory = true } else { postgresURL = postgres.value }
            } else {
                self.memory = memory?.value ?? false
                postgresURL = postgres?.value
            }
            try settings.read(Keys.snapshotEvery, into: &snapshotEvery, .atLeast(1))
            try settings.read(Keys.journalRetention, into: &journalRetention, .atLeast(1))
            try settings.read(Keys.journalRetentionBytes, into: &journalRetentionBytes, .atLeast(1))
            try settings.read(Keys.olderSnapshots, into: &olderSnapshots, .atLeast(0))
            var policy = onDamagedJournal.rawValue
            try settings.read(Keys.onDamagedJournal, into: &policy, .oneOf(DamagedJournalPolicy.allCases.map(\.rawValue)))
            onDamagedJournal = DamagedJournalPolicy(rawValue: policy) ?? .refuse
        }

        /// Each setting and its value, in the file's order.
        var entries: [ConfigurationEntry] {
            [
                ConfigurationEntry(Keys.data, data), ConfigurationEntry(Keys.memory, memory),
                ConfigurationEntry(Keys.postgresURL, postgresURL), ConfigurationEntry(Keys.snapshotEvery, snapshotEvery),
                ConfigurationEntry(Keys.journalRetention, journalRetention),
                ConfigurationEntry(Keys.journalRetentionBytes, journalRetentionBytes),
                ConfigurationEntry(Keys.olderSnapshots, olderSnapshots),
                ConfigurationEntry(Keys.onDamagedJournal, onDamagedJournal.rawValue),
            ]
        }

        /// The journal's retention these settings give.
        var retention: JournalRetention {
            JournalRetention(revisions: UInt64(journalRetention), bytes: journalRetentionBytes, olderSnapshots: olderSnapshots)
        }

        /// Sets the server's storage (a PostgreSQL one with `cluster`'s
        /// timings and the engine's `outcomeRetention`; `postgresOrigin`
        /// names the URL in errors), retention and snapshots.
        func apply(
            to configuration: inout StateSyncServerConfiguration, cluster: Cluster, outcomeRetention: OutcomeRetention,
            postgresOrigin: SettingOrigin
        ) throws(CommandFailure) {
            configuration.retention = retention
            configuration.damagedJournal = onDamagedJournal
            configuration.engine.snapshotEvery = UInt64(snapshotEvery)
            if memory {
                configuration.storage = .memory
            } else if let postgresURL {
                configuration.storage = try PostgresStorage.storage(
                    url: postgresURL, named: postgresOrigin.name, retention: retention, outcomeRetention: outcomeRetention,
                    pollInterval: .seconds(cluster.pollInterval), node: cluster.node, writerConnections: cluster.postgresWriters,
                    sessionBounds: cluster.sessionBounds)
                configuration.forwardsDispatches = cluster.forwarding
                configuration.nodeAddress = cluster.nodeAddress
            } else {
                configuration.storage = .directory(data)
            }
        }
    }
}
