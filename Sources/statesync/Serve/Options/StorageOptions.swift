import ArgumentParser
import StateSyncJournal
import StateSyncSQLite
import StateSyncServer

/// `serve`'s options of the `storage:` section: where the journal lives and how much history it keeps.
struct StorageOptions: SettingOptions {
    private typealias Keys = ServeConfiguration.Storage.Keys

    @Option(help: ArgumentHelp("The data directory (SQLite journal and snapshots; created when missing).", default: ServeConfiguration.defaults.storage.data))
    var data: String?

    @Flag(help: "Keep the state in memory only (nothing is stored; --data is ignored).")
    var memory = false

    @Option(help: "Store the journals in PostgreSQL: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE ($STATESYNC_POSTGRES_URL takes the same, out of the argument list). Cluster mode: several nodes share every store (docs/cluster.md); --data is ignored.")
    var postgres: String?

    @Option(help: ArgumentHelp("Write a full snapshot every this many revisions (and at shutdown).", default: ServeConfiguration.defaults.storage.snapshotEvery))
    var snapshotEvery: Int?

    @Option(help: ArgumentHelp(
        "Journal revisions kept behind the newest snapshot (older ones are deleted; time travel reaches what is kept).",
        default: ServeConfiguration.defaults.storage.journalRetention))
    var journalRetention: Int?

    @Option(help: ArgumentHelp(
        "Bytes of journaled actions kept behind the newest snapshot (with --memory: of all entries kept).",
        default: ServeConfiguration.defaults.storage.journalRetentionBytes))
    var journalRetentionBytes: Int?

    @Option(help: ArgumentHelp(
        "Snapshots kept older than the retained journal, sparser with age (time travel rebuilds their revisions).",
        default: ServeConfiguration.defaults.storage.olderSnapshots))
    var olderSnapshots: Int?

    @Option(help: ArgumentHelp(
        "When the journal lost acknowledged revisions: refuse (exit 1) or new-epoch (serve what is left; clients reload).",
        default: ServeConfiguration.defaults.storage.onDamagedJournal.rawValue))
    var onDamagedJournal: String?

    func add(to flags: inout FlagValues) {
        flags.set(Keys.data, data)
        flags.set(Keys.memory, given: memory)
        flags.set(Keys.postgresURL, postgres)
        flags.set(Keys.snapshotEvery, snapshotEvery)
        flags.set(Keys.journalRetention, journalRetention)
        flags.set(Keys.journalRetentionBytes, journalRetentionBytes)
        flags.set(Keys.olderSnapshots, olderSnapshots)
        flags.set(Keys.onDamagedJournal, onDamagedJournal)
    }
}
