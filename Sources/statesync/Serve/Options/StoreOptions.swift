import ArgumentParser

/// `serve`'s options of the `stores:` section: opening, bounding and closing stores.
struct StoreOptions: SettingOptions {
    private typealias Keys = ServeConfiguration.Stores.Keys

    @Option(help: ArgumentHelp(
        "Seconds a store stays open with no session in it before it closes (final snapshot, memory released).",
        default: ServeConfiguration.defaults.stores.idleSeconds))
    var storeIdleSeconds: Int?

    @Option(help: ArgumentHelp(
        "Stores open at once, main included; the least recently used idle one closes first, and when all have sessions another is refused limit_reached.",
        default: ServeConfiguration.defaults.stores.maxResident))
    var maxResidentStores: Int?

    @Option(help: ArgumentHelp(
        "Stores one connection may use, main included; beyond it limit_reached.", default: ServeConfiguration.defaults.stores.maxPerConnection))
    var maxStoresPerConnection: Int?

    @Option(help: ArgumentHelp(
        "The least role that may create a store (reader, writer or admin); any role opens one that exists.",
        default: ServeConfiguration.defaults.stores.createRole))
    var restrictCreate: String?

    @Option(help: ArgumentHelp(
        "Stores held in all, open or not, main included; creating one more is refused limit_reached.",
        default: ServeConfiguration.defaults.stores.maxStores))
    var maxStores: Int?

    @Option(help: ArgumentHelp(
        "Stores one client address may create per second (bursts of ten times as many); beyond it limit_reached.",
        default: ServeConfiguration.defaults.stores.creationsPerSecond))
    var storeCreationsPerSecond: Int?

    @Option(help: ArgumentHelp(
        "Stores given gauges of their own on /metrics (statesync_store_sessions and _revision, labelled store): the open ones with the most sessions; 0 for none.",
        default: ServeConfiguration.defaults.stores.metricsTopStores))
    var metricsTopStores: Int?

    func add(to flags: inout FlagValues) {
        flags.set(Keys.idleSeconds, storeIdleSeconds)
        flags.set(Keys.maxResident, maxResidentStores)
        flags.set(Keys.maxPerConnection, maxStoresPerConnection)
        flags.set(Keys.createRole, restrictCreate)
        flags.set(Keys.maxStores, maxStores)
        flags.set(Keys.creationsPerSecond, storeCreationsPerSecond)
        flags.set(Keys.metricsTopStores, metricsTopStores)
    }
}
