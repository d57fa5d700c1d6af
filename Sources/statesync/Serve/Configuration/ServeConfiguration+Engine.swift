import StateSyncJournal
import StateSyncSQLite
import StateSyncServer

extension ServeConfiguration {
    /// The engine's bounds: the state, answers held back, its queue,
    /// exactly-once outcomes and the devtools (the file's `engine:` section;
    /// defaults and why: ``SyncEngineConfiguration`` and ``OutcomeRetention``).
    struct Engine: Sendable, Equatable {
        /// Outcomes remembered for each clientId. Default 1,000.
        var outcomesPerClient = OutcomeRetention().perClient
        /// Seconds after its last dispatch during which a clientId's outcomes are kept. Default 600.
        var outcomeWindow = Int(OutcomeRetention().window.components.seconds)
        /// ClientIds whose outcomes are remembered. Default 10,000.
        var maxClientIds = OutcomeRetention().maxClients
        /// Most bytes of the state's JSON. Default 64 MiB.
        var maxStateBytes = SyncEngineConfiguration().maxStateBytes
        /// Answers held back for a connection that does not read. Default 1,024.
        var maxDeferredAnswers = SyncEngineConfiguration().maxDeferredAnswers
        /// Bytes of answers held back for a connection that does not read. Default 1 MiB.
        var maxDeferredBytes = SyncEngineConfiguration().maxDeferredBytes
        /// Requests queued for the engine before connections stop being read. Default 16,384.
        var maxQueuedRequests = SyncEngineConfiguration().maxQueuedRequests
        /// Devtools API requests answered at once, server-wide. Default 4.
        var maxDevtoolsRequests = ServeConfiguration.serverDefaults.maxDevtoolsRequests

        /// The settings of this section.
        enum Keys {
            static let outcomesPerClient = Setting<Int>("engine.outcomesPerClient", flag: "--outcomes-per-client")
            static let outcomeWindow = Setting<Int>("engine.outcomeWindow", flag: "--outcome-window")
            static let maxClientIds = Setting<Int>("engine.maxClientIds", flag: "--max-client-ids")
            static let maxStateBytes = Setting<Int>("engine.maxStateBytes", flag: "--max-state-bytes")
            static let maxDeferredAnswers = Setting<Int>("engine.maxDeferredAnswers", flag: "--max-deferred-answers")
            static let maxDeferredBytes = Setting<Int>("engine.maxDeferredBytes", flag: "--max-deferred-bytes")
            static let maxQueuedRequests = Setting<Int>("engine.maxQueuedRequests", flag: "--max-queued-requests")
            static let maxDevtoolsRequests = Setting<Int>("engine.maxDevtoolsRequests", flag: "--max-devtools-requests")
        }

        /// The defaults.
        init() {}

        /// The section as `settings` give it, each value checked.
        init(reading settings: inout SettingsReader) throws(ConfigurationError) {
            try settings.read(Keys.outcomesPerClient, into: &outcomesPerClient, .atLeast(1))
            try settings.read(Keys.outcomeWindow, into: &outcomeWindow, .atLeast(1))
            try settings.read(Keys.maxClientIds, into: &maxClientIds, .atLeast(1))
            try settings.read(Keys.maxStateBytes, into: &maxStateBytes, .atLeast(1))
            try settings.read(Keys.maxDeferredAnswers, into: &maxDeferredAnswers, .atLeast(1))
            try settings.read(Keys.maxDeferredBytes, into: &maxDeferredBytes, .atLeast(1))
            try settings.read(Keys.maxQueuedRequests, into: &maxQueuedRequests, .atLeast(1))
            try settings.read(Keys.maxDevtoolsRequests, into: &maxDevtoolsRequests, .atLeast(1))
        }

        /// Each setting and its value, in the file's order.
        var entries: [ConfigurationEntry] {
            [
                ConfigurationEntry(Keys.outcomesPerClient, outcomesPerClient), ConfigurationEntry(Keys.outcomeWindow, outcomeWindow),
                ConfigurationEntry(Keys.maxClientIds, maxClientIds), ConfigurationEntry(Keys.maxStateBytes, maxStateBytes),
                ConfigurationEntry(Keys.maxDeferredAnswers, maxDeferredAnswers),
                ConfigurationEntry(Keys.maxDeferredBytes, maxDeferredBytes),
                ConfigurationEntry(Keys.maxQueuedRequests, maxQueuedRequests),
                ConfigurationEntry(Keys.maxDevtoolsRequests, maxDevtoolsRequests),
            ]
        }

        /// The exactly-once retention these settings give (the engine's, and a cluster's journals').
        var outcomeRetention: OutcomeRetention {
            OutcomeRetention(perClient: outcomesPerClient, window: .seconds(outcomeWindow), maxClients: maxClientIds)
        }

        /// Sets these bounds on the server's configuration.
        func apply(to configuration: inout StateSyncServerConfiguration) {
            configuration.engine.outcomeRetention = outcomeRetention
            configuration.engine.maxStateBytes = maxStateBytes
            configuration.engine.maxDeferredAnswers = maxDeferredAnswers
            configuration.engine.maxDeferredBytes = maxDeferredBytes
            configuration.engine.maxQueuedRequests = maxQueuedRequests
            configuration.maxDevtoolsRequests = maxDevtoolsRequests
        }
    }
}
