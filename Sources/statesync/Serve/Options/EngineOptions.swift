import ArgumentParser

/// `serve`'s options of the `engine:` section: the state, answers held back, the queue, exactly-once outcomes.
struct EngineOptions: SettingOptions {
    private typealias Keys = ServeConfiguration.Engine.Keys

    @Option(help: ArgumentHelp(
        "Outcomes remembered for each clientId (exactly-once), its most recent.", default: ServeConfiguration.defaults.engine.outcomesPerClient))
    var outcomesPerClient: Int?

    @Option(help: ArgumentHelp(
        "Seconds after its last dispatch during which a clientId's outcomes are never forgotten.",
        default: ServeConfiguration.defaults.engine.outcomeWindow))
    var outcomeWindow: Int?

    @Option(help: ArgumentHelp(
        "ClientIds whose outcomes are remembered; a new one beyond it, while all dispatched within --outcome-window, gets too_many_clients.",
        default: ServeConfiguration.defaults.engine.maxClientIds))
    var maxClientIds: Int?

    @Option(help: ArgumentHelp(
        "Most bytes of the state's JSON; an action growing it further is rejected state_too_large.",
        default: ServeConfiguration.defaults.engine.maxStateBytes))
    var maxStateBytes: Int?

    @Option(help: ArgumentHelp(
        "Answers held back for a connection that does not read; beyond it the connection is closed (1008).",
        default: ServeConfiguration.defaults.engine.maxDeferredAnswers))
    var maxDeferredAnswers: Int?

    @Option(help: ArgumentHelp(
        "Bytes of answers held back for a connection that does not read; beyond it the connection is closed (1008).",
        default: ServeConfiguration.defaults.engine.maxDeferredBytes))
    var maxDeferredBytes: Int?

    @Option(help: ArgumentHelp(
        "Requests queued for the engine; beyond it connections are not read until it catches up.",
        default: ServeConfiguration.defaults.engine.maxQueuedRequests))
    var maxQueuedRequests: Int?

    @Option(help: ArgumentHelp(
        "Devtools API requests answered at once, server-wide; more get 503.", default: ServeConfiguration.defaults.engine.maxDevtoolsRequests))
    var maxDevtoolsRequests: Int?

    func add(to flags: inout FlagValues) {
        flags.set(Keys.outcomesPerClient, outcomesPerClient)
        flags.set(Keys.outcomeWindow, outcomeWindow)
        flags.set(Keys.maxClientIds, maxClientIds)
        flags.set(Keys.maxStateBytes, maxStateBytes)
        flags.set(Keys.maxDeferredAnswers, maxDeferredAnswers)
        flags.set(Keys.maxDeferredBytes, maxDeferredBytes)
        flags.set(Keys.maxQueuedRequests, maxQueuedRequests)
        flags.set(Keys.maxDevtoolsRequests, maxDevtoolsRequests)
    }
}
