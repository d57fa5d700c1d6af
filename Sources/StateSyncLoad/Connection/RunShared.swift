import NIOCore

/// What every simulated client of a run shares: the scenario and the
/// run-wide measurement state (all `Sendable`, safe from any event loop).
struct RunShared: Sendable {
    let scenario: LoadScenario
    let counters: LoadCounters
    /// One ledger per store (``LoadScenario/storeCount``): revisions are per store.
    let ledgers: [DeliveryLedger]
    let watermark: AnswerWatermark
    let problems: ProblemLog

    /// Monotonic nanoseconds (the clock every latency is measured on).
    static func now() -> UInt64 {
        NIODeadline.now().uptimeNanoseconds
    }
}
