import StateSyncProtocol
import StateSyncServer

extension ServeConfiguration {
    /// How stores other than `main` are opened, bounded and closed (the
    /// file's `stores:` section; defaults and why: ``StoreDirectoryConfiguration``).
    struct Stores: Sendable, Equatable {
        /// Seconds a store stays open with no session in it. Default 30.
        var idleSeconds = Int(StoreDirectoryConfiguration().idleTimeout.components.seconds)
        /// Stores open at once, main included. Default 1,000.
        var maxResident = StoreDirectoryConfiguration().maxResidentStores
        /// Stores one connection may use, main included. Default 16.
        var maxPerConnection = SessionConfiguration().maxStoresPerSession
        /// The least role that may create a store. Default writer.
        var createRole = StoreDirectoryConfiguration().createRole.rawValue
        /// Stores held in all, main included. Default 100,000.
        var maxStores = StoreDirectoryConfiguration().maxStores
        /// Stores one client address may create per second. Default 10.
        var creationsPerSecond = StoreDirectoryConfiguration().creationsPerSecondPerAddress
        /// Stores given gauges of their own on /metrics. Default 10.
        var metricsTopStores = StoreDirectoryConfiguration().metricsTopStores

        /// The settings of this section.
        enum Keys {
            static let idleSeconds = Setting<Int>("stores.storeIdleSeconds", flag: "--store-idle-seconds")
            static let maxResident = Setting<Int>("stores.maxResidentStores", flag: "--max-resident-stores")
            static let maxPerConnection = Setting<Int>("stores.maxStoresPerConnection", flag: "--max-stores-per-connection")
            static let createRole = Setting<String>("stores.restrictCreate", flag: "--restrict-create")
            static let maxStores = Setting<Int>("stores.maxStores", flag: "--max-stores")
            static let creationsPerSecond = Setting<Int>("stores.storeCreationsPerSecond", flag: "--store-creations-per-second")
            static let metricsTopStores = Setting<Int>("stores.metricsTopStores", flag: "--metrics-top-stores")
        }

        /// The defaults.
        init() {}

        /// The section as `settings` give it, each value checked.
        init(reading settings: inout SettingsReader) throws(ConfigurationError) {
            try settings.read(Keys.idleSeconds, into: &idleSeconds, .atLeast(1))
            try settings.read(Keys.maxResident, into: &maxResident, .atLeast(1))
            try settings.read(Keys.maxPerConnection, into: &maxPerConnection, .atLeast(1))
            try settings.read(Keys.createRole, into: &createRole, .oneOf(Role.allCases.map(\.rawValue)))
            try settings.read(Keys.maxStores, into: &maxStores, .atLeast(1))
            try settings.read(Keys.creationsPerSecond, into: &creationsPerSecond, .atLeast(1))
            try settings.read(Keys.metricsTopStores, into: &metricsTopStores, .atLeast(0))
        }

        /// Each setting and its value, in the file's order.
        var entries: [ConfigurationEntry] {
            [
                ConfigurationEntry(Keys.idleSeconds, idleSeconds), ConfigurationEntry(Keys.maxResident, maxResident),
                ConfigurationEntry(Keys.maxPerConnection, maxPerConnection), ConfigurationEntry(Keys.createRole, createRole),
                ConfigurationEntry(Keys.maxStores, maxStores), ConfigurationEntry(Keys.creationsPerSecond, creationsPerSecond),
                ConfigurationEntry(Keys.metricsTopStores, metricsTopStores),
            ]
        }

        /// Sets these bounds on the server's configuration.
        func apply(to configuration: inout StateSyncServerConfiguration) {
            configuration.stores.idleTimeout = .seconds(idleSeconds)
            configuration.stores.maxResidentStores = maxResident
            configuration.stores.createRole = Role(rawValue: createRole) ?? .writer
            configuration.stores.maxStores = maxStores
            configuration.stores.creationsPerSecondPerAddress = creationsPerSecond
            // Bursts of ten seconds of the rate, as StoreDirectoryConfiguration's defaults.
            configuration.stores.creationBurstPerAddress = creationsPerSecond * 10
            configuration.session.maxStoresPerSession = maxPerConnection
            configuration.stores.metricsTopStores = metricsTopStores
        }
    }
}
